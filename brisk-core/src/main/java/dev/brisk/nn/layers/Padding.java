package dev.brisk.nn.layers;

/**
 * Convolution and pooling padding, as in Keras: "valid" (none), "same" (output = ceil(input / stride)) or, for
 * {@link Conv1D} only, "causal".
 */
public enum Padding {
    /** No padding: windows stay inside the input. */
    VALID,
    /** Zero padding so that output = ceil(input / stride). */
    SAME,
    /**
     * {@link Conv1D} only: {@code (kernelSize - 1) * dilation} zeros before the first step and none after, so output
     * step t sees inputs up to t only.
     */
    CAUSAL
}
