package dev.brisk.nn.layers;

/** Convolution and pooling padding, as in Keras: "valid" (none) or "same" (output = ceil(input / stride)). */
public enum Padding {
    /** No padding: windows stay inside the input. */
    VALID,
    /** Zero padding so that output = ceil(input / stride). */
    SAME
}
