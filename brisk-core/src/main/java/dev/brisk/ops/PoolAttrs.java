package dev.brisk.ops;

/**
 * Window, strides and padding of a pooling op.
 *
 * @param poolH window height
 * @param poolW window width
 * @param strideH vertical stride
 * @param strideW horizontal stride
 * @param same true for "same" padding, false for "valid"
 */
public record PoolAttrs(int poolH, int poolW, int strideH, int strideW, boolean same) implements Attrs {
}
