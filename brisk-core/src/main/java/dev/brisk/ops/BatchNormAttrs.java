package dev.brisk.ops;

/**
 * The attributes of a batch normalization and its gradients: {@code epsilon}, added to the variance, and whether
 * the statistics are the batch's own ({@code training}) or fixed moving statistics.
 *
 * @param epsilon added to the variance before its square root
 * @param training true when the statistics are the batch's own, so the input's gradient includes their part
 */
public record BatchNormAttrs(float epsilon, boolean training) implements Attrs {
}
