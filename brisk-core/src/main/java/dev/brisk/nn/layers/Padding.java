package dev.brisk.nn.layers;

/** Convolution and pooling padding, as in Keras: "valid" (none) or "same" (output = ceil(input / stride)). */
public enum Padding {
    VALID, SAME
}
