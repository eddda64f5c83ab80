package dev.brisk.callbacks;

import dev.brisk.optimizers.Optimizer;
import java.util.Map;

/**
 * Keras' {@code LearningRateScheduler}: at the start of each epoch, sets the optimizer's learning rate to
 * {@code schedule(epoch, currentRate)} and records the rate in the epoch's logs as {@code learning_rate}. The
 * optimizer must have a constant rate (a step-wise {@link dev.brisk.optimizers.LearningRateSchedule} already owns it).
 */
public final class LearningRateScheduler extends Callback {
    /** The rule that gives an epoch's learning rate. */
    @FunctionalInterface
    public interface Rule {
        /**
         * The learning rate for an epoch.
         *
         * @param epoch the epoch, from 0
         * @param currentRate the rate the optimizer has now
         * @return the rate for this epoch
         */
        float rate(int epoch, float currentRate);
    }

    private final Rule rule;
    private final boolean verbose;

    /**
     * A scheduler following {@code rule}.
     *
     * @param rule the epoch's learning rate from the epoch and the current rate
     * @param verbose true to print each change, as Keras' {@code verbose=1}
     */
    public LearningRateScheduler(Rule rule, boolean verbose) {
        this.rule = rule;
        this.verbose = verbose;
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        Optimizer opt = model.optimizer();
        float rate = rule.rate(epoch, opt.learningRate());
        if (!Float.isFinite(rate) || rate < 0) {
            throw new IllegalArgumentException("LearningRateScheduler: the rule gave " + rate + " for epoch " + epoch
                    + "; a learning rate must be a finite number >= 0");
        }
        opt.setLearningRate(rate);
        if (verbose) {
            System.out.printf("Epoch %d: LearningRateScheduler setting learning rate to %s.%n", epoch + 1, rate);
        }
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        logs.put("learning_rate", (double) model.optimizer().learningRate());
    }
}
