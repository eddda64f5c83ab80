package dev.brisk.ops;

/**
 * Adamax (Keras). Slots, in order: the first moment {@code m} and the exponentially weighted infinity norm
 * {@code u}. The per-step vector has {@link #HYPER_LENGTH} values: the bias-corrected learning rate
 * {@code lr / (1 - beta1^t)} at {@link #LR_T}, the epsilon at {@link #EPS} and the decoupled decay
 * ({@code lr * weightDecay}) at {@link #DECAY}.
 *
 * @param beta1 decay of the first moment
 * @param beta2 decay of the infinity norm
 */
public record AdamaxUpdate(float beta1, float beta2) implements UpdateAttrs {
    /** Index of the bias-corrected learning rate in the per-step vector. */
    public static final int LR_T = 0;
    /** Index of the epsilon in the per-step vector. */
    public static final int EPS = 1;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 2;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 3;
}
