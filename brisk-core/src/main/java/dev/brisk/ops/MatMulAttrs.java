package dev.brisk.ops;

/**
 * Whether MATMUL transposes its left and right operands.
 *
 * @param transA whether the left operand is transposed
 * @param transB whether the right operand is transposed
 */
public record MatMulAttrs(boolean transA, boolean transB) implements Attrs {
}
