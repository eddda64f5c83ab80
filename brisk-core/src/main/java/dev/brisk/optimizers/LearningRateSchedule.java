package dev.brisk.optimizers;

/** A learning rate that depends on the optimiser step (computed on the host and fed to each step). */
@FunctionalInterface
public interface LearningRateSchedule {
    /** The learning rate for the update with index {@code step} (0 for the first update). */
    float at(long step);

    /** Keras' ExponentialDecay: {@code lr0 * rate^(step / decaySteps)}, floored when {@code staircase}. */
    static LearningRateSchedule exponentialDecay(float initial, long decaySteps, float decayRate, boolean staircase) {
        if (decaySteps <= 0) {
            throw new IllegalArgumentException("decaySteps must be positive, got " + decaySteps);
        }
        return step -> {
            double p = (double) step / decaySteps;
            return (float) (initial * Math.pow(decayRate, staircase ? Math.floor(p) : p));
        };
    }

    /** Keras' CosineDecay: cosine from {@code lr0} down to {@code alpha * lr0} over {@code decaySteps}, then flat. */
    static LearningRateSchedule cosineDecay(float initial, long decaySteps, float alpha) {
        if (decaySteps <= 0) {
            throw new IllegalArgumentException("decaySteps must be positive, got " + decaySteps);
        }
        return step -> {
            double p = Math.min(step, decaySteps) / (double) decaySteps;
            double cosine = 0.5 * (1 + Math.cos(Math.PI * p));
            return (float) (initial * ((1 - alpha) * cosine + alpha));
        };
    }
}
