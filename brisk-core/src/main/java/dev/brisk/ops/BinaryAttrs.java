package dev.brisk.ops;


/**
 * The function of a BINARY node and its parameter.
 *
 * @param fn the function
 * @param alpha its parameter (the slope of LEAKY_RELU_GRAD, the epsilon of CLIP_PROB_GRAD); 0 for those without one
 */
public record BinaryAttrs(BinaryFn fn, float alpha) implements Attrs {
}
