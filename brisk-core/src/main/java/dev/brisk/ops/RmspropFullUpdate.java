package dev.brisk.ops;

/**
 * RMSprop with momentum, centring or a decoupled weight decay (Keras' {@code momentum > 0}, {@code centered=True},
 * {@code weight_decay}); the plain rule is {@link RmspropUpdate}. Slots, in order: the mean square, then the
 * momentum (when {@code momentum > 0}), then the mean gradient (when centred). The per-step vector has
 * {@link #HYPER_LENGTH} values: the learning rate at {@link #LR}, the epsilon at {@link #EPS} and the decoupled
 * decay ({@code lr * weightDecay}) at {@link #DECAY}.
 *
 * @param rho decay of the mean square (and of the mean gradient)
 * @param momentum the momentum, 0 for none
 * @param centered whether the mean square is centred by the square of the mean gradient
 */
public record RmspropFullUpdate(float rho, float momentum, boolean centered) implements UpdateAttrs {
    /** Index of the learning rate in the per-step vector. */
    public static final int LR = 0;
    /** Index of the epsilon in the per-step vector. */
    public static final int EPS = 1;
    /** Index of the decoupled weight decay ({@code lr * weightDecay}) in the per-step vector. */
    public static final int DECAY = 2;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 3;
}
