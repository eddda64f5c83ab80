package dev.brisk.ops;

/**
 * The attributes of a batch normalization and its gradients: {@code epsilon}, added to the variance, and whether
 * the statistics are the batch's own ({@code training}) or fixed moving statistics.
 */
public record BatchNormAttrs(float epsilon, boolean training) implements Attrs {
}
