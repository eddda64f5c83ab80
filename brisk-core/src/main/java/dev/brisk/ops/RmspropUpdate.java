package dev.brisk.ops;

/**
 * RMSprop (not centred, no momentum). Slots: the running mean square of the gradient. The per-step vector has
 * {@link #HYPER_LENGTH} values: the learning rate at {@link #LR} and the epsilon at {@link #EPS}.
 *
 * @param rho decay of the running mean square
 */
public record RmspropUpdate(float rho) implements UpdateAttrs {
    /** Index of the learning rate in the per-step vector. */
    public static final int LR = 0;
    /** Index of the epsilon in the per-step vector. */
    public static final int EPS = 1;
    /** Length of the per-step vector. */
    public static final int HYPER_LENGTH = 2;
}
