package dev.brisk.ops;

/** Whether MATMUL transposes its left and right operands. */
public record MatMulAttrs(boolean transA, boolean transB) implements Attrs {
}
