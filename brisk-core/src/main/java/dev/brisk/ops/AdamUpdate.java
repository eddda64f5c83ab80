package dev.brisk.ops;

/**
 * Adam (AdamW with a decoupled weight decay). Slots, in order: the first moment {@code m} and the second moment
 * {@code v}. The per-step vector has {@link #HYPER_LENGTH} values: the bias-corrected learning rate at
 * {@link #LR_T}, the epsilon at {@link #EPS_HAT} and the decoupled decay ({@code lr * weightDecay}) at
 * {@link #DECOUPLED_DECAY}.
 *
 * @param beta1 decay of the first moment
 * @param beta2 decay of the second moment
 */
public record AdamUpdate(float beta1, float beta2) implements UpdateAttrs {
    /** Index of the bias-corrected learning rate in the per-step vector. */
    public static final int LR_T = 0;
    /** Index of the epsilon in the per-step vector. */
    public static final int EPS_HAT = 1;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECOUPLED_DECAY = 2;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 3;
}
