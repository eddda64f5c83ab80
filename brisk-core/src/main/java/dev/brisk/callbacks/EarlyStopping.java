package dev.brisk.callbacks;

import dev.brisk.tensor.Tensor;
import java.util.Map;

/** Stops training when a monitored metric has stopped improving (Keras semantics and defaults). */
public final class EarlyStopping extends Callback {
    private final String monitor;
    private final double minDelta;
    private final int patience;
    private final boolean maximise;
    private final boolean restoreBestWeights;
    private double best;
    private int wait;
    private int stoppedEpoch = -1;
    private int bestEpoch = -1;
    private Map<String, Tensor> bestWeights;

    /**
     * Stops training when {@code monitor} has not improved for {@code patience} epochs (Keras' EarlyStopping).
     *
     * @param monitor the metric to watch, e.g. {@code val_loss}
     * @param minDelta the smallest change that counts as an improvement (its sign is ignored)
     * @param patience epochs without improvement before training stops
     * @param mode which direction is an improvement
     * @param restoreBestWeights true to restore the weights of the best epoch when training stops
     */
    public EarlyStopping(String monitor, double minDelta, int patience, Monitor mode, boolean restoreBestWeights) {
        this.monitor = monitor;
        this.minDelta = Math.abs(minDelta);
        this.patience = patience;
        this.maximise = mode.maximises(monitor);
        this.restoreBestWeights = restoreBestWeights;
    }

    /**
     * Monitors {@code monitor} with the given patience; no minimum delta, auto mode, no weight restore.
     *
     * @param monitor the metric to watch, e.g. {@code val_loss}
     * @param patience epochs without improvement before training stops
     */
    public EarlyStopping(String monitor, int patience) {
        this(monitor, 0, patience, Monitor.AUTO, false);
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        wait = 0;
        stoppedEpoch = -1;
        bestEpoch = -1;
        best = Double.NaN;
        bestWeights = null;
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        Double current = logs.get(monitor);
        if (current == null) {
            System.err.println("EarlyStopping: metric '" + monitor + "' is not available; available: "
                    + logs.keySet());
            return;
        }
        if (restoreBestWeights && bestWeights == null) {
            bestWeights = model.weightsByName();
        }
        wait++;
        if (Monitor.improves(maximise, current, best, minDelta)) {
            best = current;
            bestEpoch = epoch;
            wait = 0;
            if (restoreBestWeights) {
                bestWeights = model.weightsByName();
            }
            return;
        }
        if (wait >= patience && epoch > 0) {
            stoppedEpoch = epoch;
            model.stopTraining();
            if (restoreBestWeights && bestWeights != null) {
                System.out.println("Restoring model weights from the end of the best epoch: " + (bestEpoch + 1) + ".");
                model.setWeightsByName(bestWeights);
            }
        }
    }

    @Override
    public void onTrainEnd(Map<String, Double> logs) {
        if (stoppedEpoch >= 0) {
            System.out.println("Epoch " + (stoppedEpoch + 1) + ": early stopping");
        }
    }

    /**
     * The epoch (0-based) at which training was stopped, or -1.
     *
     * @return the epoch, or -1 when training ran to the end
     */
    public int stoppedEpoch() {
        return stoppedEpoch;
    }

    /**
     * The best value seen of the monitored metric.
     *
     * @return the best value, or NaN before the first epoch ended
     */
    public double best() {
        return best;
    }
}
