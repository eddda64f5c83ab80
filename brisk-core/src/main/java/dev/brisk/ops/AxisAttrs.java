package dev.brisk.ops;

/** An axis, and for SLICE the start and length of the range taken along it. */
public record AxisAttrs(int axis, int start, int length) implements Attrs {
}
