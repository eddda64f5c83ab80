package dev.brisk.ops;

/**
 * Strides and padding of a convolution; {@code same} pads as TensorFlow/Keras (extra cell at the bottom/right).
 *
 * @param strideH vertical stride
 * @param strideW horizontal stride
 * @param same true for "same" padding, false for "valid"
 */
public record ConvAttrs(int strideH, int strideW, boolean same) implements Attrs {
}
