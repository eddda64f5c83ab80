package dev.brisk.ops;

/**
 * Lion (Keras). Slots: the momentum {@code m}. The per-step vector has {@link #HYPER_LENGTH} values: the learning
 * rate at {@link #LR} and the decoupled decay ({@code lr * weightDecay}) at {@link #DECAY}.
 *
 * @param beta1 the weight of the momentum in the sign of the update
 * @param beta2 the decay of the momentum
 */
public record LionUpdate(float beta1, float beta2) implements UpdateAttrs {
    /** Index of the learning rate in the per-step vector. */
    public static final int LR = 0;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 1;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 2;
}
