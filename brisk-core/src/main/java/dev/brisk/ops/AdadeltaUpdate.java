package dev.brisk.ops;

/**
 * Adadelta (Keras). Slots, in order: the running mean of squared gradients and the running mean of squared updates.
 * The per-step vector has {@link #HYPER_LENGTH} values: the learning rate at {@link #LR}, the epsilon at
 * {@link #EPS} and the decoupled decay ({@code lr * weightDecay}) at {@link #DECAY}.
 *
 * @param rho the decay of both running means
 */
public record AdadeltaUpdate(float rho) implements UpdateAttrs {
    /** Index of the learning rate in the per-step vector. */
    public static final int LR = 0;
    /** Index of the epsilon in the per-step vector. */
    public static final int EPS = 1;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 2;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 3;
}
