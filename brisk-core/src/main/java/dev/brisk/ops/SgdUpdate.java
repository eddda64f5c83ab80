package dev.brisk.ops;

/**
 * Stochastic gradient descent with optional (Nesterov) momentum. Slots: the velocity, present only when the
 * momentum is positive. The per-step vector has {@link #HYPER_LENGTH} values: the learning rate at {@link #LR} and
 * the decoupled decay ({@code lr * weightDecay}) at {@link #DECAY}.
 *
 * @param momentum velocity decay (0 for plain SGD, which has no velocity slot)
 * @param nesterov whether the step looks ahead along the velocity
 */
public record SgdUpdate(float momentum, boolean nesterov) implements UpdateAttrs {
    /** Index of the learning rate in the per-step vector. */
    public static final int LR = 0;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 1;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 2;
}
