package dev.brisk.ops;


/**
 * The function of a UNARY node and its parameter.
 *
 * @param fn the function
 * @param alpha its parameter (e.g. the slope of LEAKY_RELU, the factor of SCALE); 0 for those without one
 */
public record UnaryAttrs(UnaryFn fn, float alpha) implements Attrs {
}
