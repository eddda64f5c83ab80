package dev.brisk.optimizers;

/** A learning rate that depends on the optimiser step (computed on the host and fed to each step). */
@FunctionalInterface
public interface LearningRateSchedule {
    /**
     * The learning rate for the update with index {@code step} (0 for the first update).
     *
     * @param step the update's index, from 0
     * @return the learning rate for that update
     */
    float at(long step);

    /**
     * Keras' ExponentialDecay: {@code lr0 * rate^(step / decaySteps)}, floored when {@code staircase}.
     *
     * @param initial the learning rate of the first update, {@code lr0}
     * @param decaySteps the steps over which the rate is multiplied by {@code decayRate} once
     * @param decayRate the factor per {@code decaySteps}, e.g. 0.96
     * @param staircase true to decay in steps (integer division), false for a smooth decay
     * @return the schedule
     */
    static LearningRateSchedule exponentialDecay(float initial, long decaySteps, float decayRate, boolean staircase) {
        if (decaySteps <= 0) {
            throw new IllegalArgumentException("decaySteps must be positive, got " + decaySteps);
        }
        return new NamedSchedule("ExponentialDecay", NamedSchedule.config("initial_learning_rate", initial,
                "decay_steps", decaySteps, "decay_rate", decayRate, "staircase", staircase, "name",
                "ExponentialDecay"), step -> {
            double p = (double) step / decaySteps;
            return (float) (initial * Math.pow(decayRate, staircase ? Math.floor(p) : p));
        });
    }

    /**
     * Keras' CosineDecay: cosine from {@code lr0} down to {@code alpha * lr0} over {@code decaySteps}, then flat.
     *
     * @param initial the learning rate of the first update, {@code lr0}
     * @param decaySteps the steps the cosine spans
     * @param alpha the final rate as a fraction of {@code lr0}
     * @return the schedule
     */
    static LearningRateSchedule cosineDecay(float initial, long decaySteps, float alpha) {
        if (decaySteps <= 0) {
            throw new IllegalArgumentException("decaySteps must be positive, got " + decaySteps);
        }
        return new NamedSchedule("CosineDecay", NamedSchedule.config("initial_learning_rate", initial,
                "decay_steps", decaySteps, "alpha", alpha, "name", "CosineDecay", "warmup_target", null,
                "warmup_steps", 0), step -> {
            double p = Math.min(step, decaySteps) / (double) decaySteps;
            double cosine = 0.5 * (1 + Math.cos(Math.PI * p));
            return (float) (initial * ((1 - alpha) * cosine + alpha));
        });
    }
}
