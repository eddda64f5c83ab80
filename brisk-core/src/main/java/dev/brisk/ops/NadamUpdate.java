package dev.brisk.ops;

/**
 * Nadam (Keras' momentum-cache schedule). Slots, in order: the first moment {@code m} and the second moment
 * {@code v}. The host folds the schedule into the per-step vector of {@link #HYPER_LENGTH} values: the rate of the
 * moment {@code lr u_{t+1} / (1 - prod u_1..u_{t+1})} at {@link #M_RATE}, the rate of the gradient
 * {@code lr (1 - u_t) / (1 - prod u_1..u_t)} at {@link #G_RATE}, the second moment's bias correction
 * {@code 1 / (1 - beta2^t)} at {@link #V_CORRECTION}, the epsilon at {@link #EPS} and the decoupled decay at
 * {@link #DECAY}.
 *
 * @param beta1 decay of the first moment
 * @param beta2 decay of the second moment
 */
public record NadamUpdate(float beta1, float beta2) implements UpdateAttrs {
    /** Index of the first moment's rate in the per-step vector. */
    public static final int M_RATE = 0;
    /** Index of the gradient's rate in the per-step vector. */
    public static final int G_RATE = 1;
    /** Index of the second moment's bias correction {@code 1 / (1 - beta2^t)} in the per-step vector. */
    public static final int V_CORRECTION = 2;
    /** Index of the epsilon in the per-step vector. */
    public static final int EPS = 3;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 4;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 5;
}
