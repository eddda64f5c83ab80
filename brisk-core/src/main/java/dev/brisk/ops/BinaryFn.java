package dev.brisk.ops;

/**
 * Elementwise functions of two inputs: {@code out = f(a, b)}. The *_GRAD entries compute the backward pass of an
 * activation from the forward input or output ({@code a}) and the upstream gradient ({@code b}).
 */
public enum BinaryFn {
    /** {@code a + b}. */
    ADD,
    /** {@code a - b}. */
    SUB,
    /** {@code a * b}. */
    MUL,
    /** {@code a / b}. */
    DIV,
    /** The larger of {@code a} and {@code b}. */
    MAX,
    /** The smaller of {@code a} and {@code b}. */
    MIN,
    /** {@code a > b ? 1 : 0}. */
    GREATER,
    /** {@code a > 0 ? b : 0}, a = relu input. */
    RELU_GRAD,
    /** {@code a > 0 ? b : alpha * b}, a = leaky relu input. */
    LEAKY_RELU_GRAD,
    /** {@code b * a * (1 - a)}, a = sigmoid output. */
    SIGMOID_GRAD,
    /** {@code b * (1 - a * a)}, a = tanh output. */
    TANH_GRAD,
    /** {@code b * gelu'(a)}, a = gelu input (exact erf form). */
    GELU_GRAD,
    /** {@code b * (a >= alpha && a <= 1 - alpha ? 1 : 0)}, a = input of CLIP_PROB. */
    CLIP_PROB_GRAD
}
