package dev.brisk.ops;

/**
 * Whether a SOFTMAX node computes log-softmax, and the axis it normalizes.
 *
 * @param log true for log-softmax
 * @param axis the axis the probabilities sum to one along; negative axes count from the end
 */
public record SoftmaxAttrs(boolean log, int axis) implements Attrs {
    /**
     * Softmax or log-softmax over the last axis.
     *
     * @param log true for log-softmax
     */
    public SoftmaxAttrs(boolean log) {
        this(log, -1);
    }
}
