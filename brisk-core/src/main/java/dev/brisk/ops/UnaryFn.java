package dev.brisk.ops;

/**
 * Elementwise functions of one input: {@code y[i] = f(x[i])}. {@code alpha} is the parameter of those that take
 * one.
 */
public enum UnaryFn {
    /** {@code -x}. */
    NEG,
    /** {@code e^x}. */
    EXP,
    /** The natural logarithm. */
    LOG,
    /** The square root. */
    SQRT,
    /** {@code 1 / sqrt(x)}. */
    RSQRT,
    /** {@code x * x}. */
    SQUARE,
    /** {@code |x|}. */
    ABS,
    /** {@code 1 / x}. */
    RECIPROCAL,
    /** {@code max(x, 0)}. */
    RELU,
    /** {@code 1 / (1 + e^-x)}. */
    SIGMOID,
    /** The hyperbolic tangent. */
    TANH,
    /**
     * GELU, tanh approximation off: {@code x * Phi(x)} with the exact erf, as Keras' default
     * {@code approximate=False}.
     */
    GELU,
    /** {@code x > 0 ? x : alpha * x}. */
    LEAKY_RELU,
    /** {@code x * alpha}. */
    SCALE,
    /** {@code x + alpha}. */
    ADD_SCALAR,
    /** Clip to {@code [alpha, 1 - alpha]}: the epsilon clipping of probabilities in cross-entropy. */
    CLIP_PROB,
    /** {@code 1} where x is NaN or infinite, else {@code 0}. */
    NON_FINITE;

    /**
     * True when the gradient of this function reads the op's input (not only its output and the upstream gradient),
     * so that the input's value must be kept: an eager fused chain then stops before the activation.
     *
     * @return true when the input must be kept for the gradient
     */
    public boolean gradientReadsInput() {
        return switch (this) {
            case LOG, SQUARE, ABS, LEAKY_RELU, GELU, CLIP_PROB, NON_FINITE -> true;
            default -> false;
        };
    }
}
