package dev.brisk.ops;

/**
 * Adagrad (Keras). Slots: the running sum of squared gradients, which starts at Keras'
 * {@code initial_accumulator_value}. The per-step vector has {@link #HYPER_LENGTH} values: the learning rate at
 * {@link #LR}, the epsilon at {@link #EPS} and the decoupled decay ({@code lr * weightDecay}) at {@link #DECAY}.
 */
public record AdagradUpdate() implements UpdateAttrs {
    /** Index of the learning rate in the per-step vector. */
    public static final int LR = 0;
    /** Index of the epsilon in the per-step vector. */
    public static final int EPS = 1;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 2;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 3;
}
