package dev.brisk.ops;

/**
 * The epsilon a LAYER_NORM node (and its gradients) adds to each row's variance.
 *
 * @param epsilon added to the variance before the square root
 */
public record LayerNormAttrs(float epsilon) implements Attrs {
}
