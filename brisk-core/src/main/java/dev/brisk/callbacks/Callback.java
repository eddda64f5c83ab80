package dev.brisk.callbacks;

import java.util.Map;

/**
 * Base class of callbacks, with Keras' hook names; every hook does nothing unless overridden. {@code logs} maps
 * metric names ("loss", "accuracy", "val_loss") to values.
 */
public abstract class Callback {
    protected TrainingTarget model;
    protected TrainingParams params;

    public void setModel(TrainingTarget model) {
        this.model = model;
    }

    public void setParams(TrainingParams params) {
        this.params = params;
    }

    public void onTrainBegin(Map<String, Double> logs) {
    }

    public void onTrainEnd(Map<String, Double> logs) {
    }

    /**
     * Called instead of {@link #onTrainEnd} when {@code fit} stops with an exception, even one thrown by another
     * callback's {@link #onTrainBegin} (not a Keras hook): release files and other resources here, so that what was
     * written survives. The exception then propagates.
     */
    public void onTrainFailed(Throwable error) {
    }

    public void onEpochBegin(int epoch, Map<String, Double> logs) {
    }

    public void onEpochEnd(int epoch, Map<String, Double> logs) {
    }

    public void onTrainBatchBegin(int batch, Map<String, Double> logs) {
    }

    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
    }

    public void onTestBegin(Map<String, Double> logs) {
    }

    public void onTestEnd(Map<String, Double> logs) {
    }
}
