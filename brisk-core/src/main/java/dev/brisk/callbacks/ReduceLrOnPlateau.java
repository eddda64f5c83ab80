package dev.brisk.callbacks;

import dev.brisk.optimizers.Optimizer;
import java.util.Map;

/** Multiplies the learning rate by {@code factor} when a metric has stopped improving (Keras semantics). */
public final class ReduceLrOnPlateau extends Callback {
    private final String monitor;
    private final float factor;
    private final int patience;
    private final double minDelta;
    private final int cooldown;
    private final float minLr;
    private final boolean maximise;
    private double best = Double.NaN;
    private int wait;
    private int cooldownCounter;

    /**
     * Multiplies the learning rate by {@code factor} when {@code monitor} has not improved for {@code patience} epochs.
     *
     * @param monitor the metric to watch, e.g. {@code val_loss}
     * @param factor the factor, below 1
     * @param patience epochs without improvement before the rate is reduced
     * @param minDelta the smallest change that counts as an improvement
     * @param cooldown epochs to wait after a reduction before counting again
     * @param minLr the learning rate is never reduced below this
     * @param mode which direction is an improvement
     */
    public ReduceLrOnPlateau(String monitor, float factor, int patience, double minDelta, int cooldown, float minLr,
                             Monitor mode) {
        if (factor >= 1f) {
            throw new IllegalArgumentException("ReduceLROnPlateau does not support a factor >= 1, got " + factor);
        }
        this.monitor = monitor;
        this.factor = factor;
        this.patience = patience;
        this.minDelta = minDelta;
        this.cooldown = cooldown;
        this.minLr = minLr;
        this.maximise = mode.maximises(monitor);
    }

    /**
     * Keras' defaults: factor 0.1, patience 10, min delta 1e-4, no cooldown, min lr 0.
     *
     * @param monitor the metric to watch, e.g. {@code val_loss}
     */
    public ReduceLrOnPlateau(String monitor) {
        this(monitor, 0.1f, 10, 1e-4, 0, 0f, Monitor.AUTO);
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        best = Double.NaN;
        wait = 0;
        cooldownCounter = 0;
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        Optimizer opt = model.optimizer();
        logs.put("learning_rate", (double) opt.learningRate());
        Double current = logs.get(monitor);
        if (current == null) {
            System.err.println("ReduceLROnPlateau: metric '" + monitor + "' is not available; available: "
                    + logs.keySet());
            return;
        }
        if (cooldownCounter > 0) {
            cooldownCounter--;
            wait = 0;
        }
        if (Monitor.improves(maximise, current, best, minDelta)) {
            best = current;
            wait = 0;
        } else if (cooldownCounter <= 0) {
            wait++;
            if (wait >= patience) {
                float old = opt.learningRate();
                if (old > minLr) {
                    float lr = Math.max(old * factor, minLr);
                    opt.setLearningRate(lr);
                    System.out.printf("Epoch %d: ReduceLROnPlateau reducing learning rate to %s.%n", epoch + 1, lr);
                    cooldownCounter = cooldown;
                    wait = 0;
                }
            }
        }
    }
}
