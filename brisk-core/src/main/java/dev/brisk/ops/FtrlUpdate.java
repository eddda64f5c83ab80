package dev.brisk.ops;

/**
 * FTRL-proximal (Keras' {@code Ftrl}). Slots: the accumulator of squared gradients (starting at Keras'
 * {@code initial_accumulator_value}) and the linear term. The per-step vector has {@link #HYPER_LENGTH} values: the
 * learning rate at {@link #LR}, twice the step's L2 strength ({@code 2 (l2 + beta / (2 lr))}, which depends on the
 * rate) at {@link #TWO_L2} and the decoupled decay ({@code lr * weightDecay}) at {@link #DECAY}.
 *
 * @param learningRatePower Keras' {@code learning_rate_power}, at most 0 (-0.5 is a square root)
 * @param l1 Keras' {@code l1_regularization_strength}
 * @param shrinkage2 twice Keras' {@code l2_shrinkage_regularization_strength}
 */
public record FtrlUpdate(float learningRatePower, float l1, float shrinkage2) implements UpdateAttrs {
    /** Index of the learning rate in the per-step vector. */
    public static final int LR = 0;
    /** Index of twice the step's L2 strength in the per-step vector. */
    public static final int TWO_L2 = 1;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 2;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 3;
}
