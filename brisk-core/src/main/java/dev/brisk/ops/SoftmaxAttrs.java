package dev.brisk.ops;

/**
 * Whether a SOFTMAX node computes log-softmax.
 *
 * @param log true for log-softmax
 */
public record SoftmaxAttrs(boolean log) implements Attrs {
}
