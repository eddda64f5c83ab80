package dev.brisk.optimizers;

import dev.brisk.io.KerasObject;
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
        return new NamedSchedule("ExponentialDecay", KerasObject.config("initial_learning_rate", initial,
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
        return cosineDecay(initial, decaySteps, alpha, null, 0);
    }

    /**
     * Keras 3's CosineDecay with a linear warm-up: from {@code initial} up to {@code warmupTarget} over
     * {@code warmupSteps}, then a cosine from {@code warmupTarget} down to {@code alpha * warmupTarget} over
     * {@code decaySteps}, then flat. Without a warm-up target it is the plain cosine decay from {@code initial}.
     *
     * @param initial the learning rate of the first update
     * @param decaySteps the steps the cosine spans (after the warm-up)
     * @param alpha the final rate as a fraction of the rate the cosine starts from
     * @param warmupTarget the rate reached at the end of the warm-up, or null for no warm-up
     * @param warmupSteps the warm-up's length in steps (0 with no warm-up)
     * @return the schedule
     */
    static LearningRateSchedule cosineDecay(float initial, long decaySteps, float alpha, Float warmupTarget,
                                            long warmupSteps) {
        Schedules.positive("decaySteps", decaySteps);
        if (warmupSteps < 0 || (warmupTarget == null && warmupSteps != 0)) {
            throw new IllegalArgumentException("a warm-up needs a target and warmupSteps >= 0, got target "
                    + warmupTarget + " over " + warmupSteps + " steps");
        }
        return new NamedSchedule("CosineDecay", KerasObject.config("initial_learning_rate", initial,
                "decay_steps", decaySteps, "alpha", alpha, "name", "CosineDecay", "warmup_target", warmupTarget,
                "warmup_steps", warmupSteps), step -> {
            if (warmupTarget == null) {
                return (float) Schedules.cosine(initial, Math.min(step, decaySteps), decaySteps, alpha);
            }
            if (step < warmupSteps) {
                return (float) (initial + (warmupTarget - initial) * ((double) step / warmupSteps));
            }
            return (float) Schedules.cosine(warmupTarget, Math.min(step - warmupSteps, decaySteps), decaySteps,
                    alpha);
        });
    }

    /**
     * Keras' PiecewiseConstantDecay: {@code values[0]} up to and including step {@code boundaries[0]},
     * {@code values[i]} after {@code boundaries[i-1]} up to {@code boundaries[i]}, the last value after the last
     * boundary.
     *
     * @param boundaries increasing step boundaries
     * @param values one more value than boundaries
     * @return the schedule
     */
    static LearningRateSchedule piecewiseConstantDecay(long[] boundaries, float[] values) {
        if (values.length != boundaries.length + 1) {
            throw new IllegalArgumentException("PiecewiseConstantDecay needs one more value than boundaries, got "
                    + boundaries.length + " boundaries and " + values.length + " values");
        }
        for (int i = 1; i < boundaries.length; i++) {
            if (boundaries[i] <= boundaries[i - 1]) {
                throw new IllegalArgumentException("PiecewiseConstantDecay's boundaries must increase, got "
                        + java.util.Arrays.toString(boundaries));
            }
        }
        long[] b = boundaries.clone();
        float[] v = values.clone();
        return new NamedSchedule("PiecewiseConstantDecay", KerasObject.config("boundaries",
                java.util.Arrays.stream(b).boxed().toList(), "values", Schedules.boxed(v), "name",
                "PiecewiseConstantDecay"), step -> {
            int i = 0;
            while (i < b.length && step > b[i]) {
                i++;
            }
            return v[i];
        });
    }

    /**
     * Keras' PolynomialDecay: {@code (lr0 - end) * (1 - step / decaySteps)^power + end}, the step held at
     * {@code decaySteps} (or, with {@code cycle}, the decay restarted with {@code decaySteps} stretched to the next
     * multiple past the step).
     *
     * @param initial {@code lr0}
     * @param decaySteps the steps to reach {@code end}
     * @param end the final rate (Keras' default 1e-4)
     * @param power the polynomial's power (Keras' default 1, linear)
     * @param cycle whether the decay restarts after {@code decaySteps}
     * @return the schedule
     */
    static LearningRateSchedule polynomialDecay(float initial, long decaySteps, float end, float power,
                                                boolean cycle) {
        Schedules.positive("decaySteps", decaySteps);
        return new NamedSchedule("PolynomialDecay", KerasObject.config("initial_learning_rate", initial,
                "decay_steps", decaySteps, "end_learning_rate", end, "power", power, "cycle", cycle, "name",
                "PolynomialDecay"), step -> {
            double steps = decaySteps;
            double t = step;
            if (cycle) {
                double multiplier = step == 0 ? 1 : Math.ceil((double) step / decaySteps);
                steps = decaySteps * multiplier;
            } else {
                t = Math.min(step, decaySteps);
            }
            return (float) ((initial - end) * Math.pow(1 - t / steps, power) + end);
        });
    }

    /**
     * Keras' InverseTimeDecay: {@code lr0 / (1 + rate * step / decaySteps)}, the ratio floored when
     * {@code staircase}.
     *
     * @param initial {@code lr0}
     * @param decaySteps the steps per unit of decay
     * @param decayRate the rate of decay
     * @param staircase true to decay in steps
     * @return the schedule
     */
    static LearningRateSchedule inverseTimeDecay(float initial, long decaySteps, float decayRate, boolean staircase) {
        Schedules.positive("decaySteps", decaySteps);
        return new NamedSchedule("InverseTimeDecay", KerasObject.config("initial_learning_rate", initial,
                "decay_steps", decaySteps, "decay_rate", decayRate, "staircase", staircase, "name",
                "InverseTimeDecay"), step -> {
            double p = (double) step / decaySteps;
            return (float) (initial / (1 + decayRate * (staircase ? Math.floor(p) : p)));
        });
    }

    /**
     * Keras' CosineDecayRestarts (SGDR): cosine decays of {@code firstDecaySteps}, each next period {@code tMul}
     * times longer and starting {@code mMul} times lower.
     *
     * @param initial {@code lr0}
     * @param firstDecaySteps the first period's length
     * @param tMul the factor between period lengths (Keras' default 2)
     * @param mMul the factor between the periods' starting rates (Keras' default 1)
     * @param alpha the minimum as a fraction of {@code lr0} (Keras' default 0)
     * @return the schedule
     */
    static LearningRateSchedule cosineDecayRestarts(float initial, long firstDecaySteps, float tMul, float mMul,
                                                    float alpha) {
        Schedules.positive("firstDecaySteps", firstDecaySteps);
        return new NamedSchedule("CosineDecayRestarts", KerasObject.config("initial_learning_rate", initial,
                "first_decay_steps", firstDecaySteps, "t_mul", tMul, "m_mul", mMul, "alpha", alpha, "name",
                "SGDRDecay"), step -> {
            double fraction = (double) step / firstDecaySteps;
            double restart;
            if (tMul == 1f) {
                restart = Math.floor(fraction);
                fraction -= restart;
            } else {
                restart = Math.floor(Math.log(1 - fraction * (1 - tMul)) / Math.log(tMul));
                double before = (1 - Math.pow(tMul, restart)) / (1 - tMul);
                fraction = (fraction - before) / Math.pow(tMul, restart);
            }
            double cosine = 0.5 * Math.pow(mMul, restart) * (1 + Math.cos(Math.PI * fraction));
            return (float) (initial * ((1 - alpha) * cosine + alpha));
        });
    }
}
