package dev.brisk.ops;

/** Window, strides and padding of a pooling op. */
public record PoolAttrs(int poolH, int poolW, int strideH, int strideW, boolean same) implements Attrs {
}
