package dev.brisk.ops;


/** A REDUCE node's function, the axes it reduces, and whether they are kept as size-1 axes. */
public record ReduceAttrs(ReduceFn fn, int[] axes, boolean keepDims) implements Attrs {
}
