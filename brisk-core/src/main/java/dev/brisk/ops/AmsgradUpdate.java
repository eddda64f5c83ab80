package dev.brisk.ops;

/**
 * Adam with AMSGrad (Keras' {@code amsgrad=True}): Adam whose denominator uses the largest second moment seen so far.
 * Slots, in order: {@code m}, {@code v} and the running maximum {@code vHat}. The per-step vector is laid out as
 * {@link AdamUpdate}'s ({@link AdamUpdate#LR_T}, {@link AdamUpdate#EPS_HAT}, {@link AdamUpdate#DECOUPLED_DECAY}).
 *
 * @param beta1 decay of the first moment
 * @param beta2 decay of the second moment
 */
public record AmsgradUpdate(float beta1, float beta2) implements UpdateAttrs {
}
