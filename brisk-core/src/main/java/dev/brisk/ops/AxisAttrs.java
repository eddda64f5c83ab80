package dev.brisk.ops;

/**
 * An axis, and for SLICE the start and length of the range taken along it.
 *
 * @param axis the axis, counted with the batch axis
 * @param start for SLICE, the first index taken along the axis
 * @param length for SLICE, the number of indexes taken
 */
public record AxisAttrs(int axis, int start, int length) implements Attrs {
}
