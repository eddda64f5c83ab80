package dev.brisk.ops;

/** Strides and padding of a convolution; {@code same} pads as TensorFlow/Keras (extra cell at the bottom/right). */
public record ConvAttrs(int strideH, int strideW, boolean same) implements Attrs {
}
