package dev.brisk.ops;


/**
 * A REDUCE node's function, the axes it reduces, and whether they are kept as size-1 axes.
 *
 * @param fn the reduction
 * @param axes the axes reduced; negative axes count from the end
 * @param keepDims true to keep the reduced axes as size 1
 */
public record ReduceAttrs(ReduceFn fn, int[] axes, boolean keepDims) implements Attrs {
}
