package dev.brisk.callbacks;

import java.util.Map;

/**
 * Base class of callbacks, with Keras' hook names; every hook does nothing unless overridden. {@code logs} maps
 * metric names ("loss", "accuracy", "val_loss") to values.
 */
public abstract class Callback {
    /** The model being trained, set by {@code fit} before {@link #onTrainBegin}. */
    protected TrainingTarget model;
    /** The shape of the fit run, set by {@code fit} before {@link #onTrainBegin}. */
    protected TrainingParams params;

    /** A callback with no model or parameters yet; {@code fit} sets both before training starts. */
    public Callback() {
    }

    /**
     * Called by {@code fit} before training starts with the model being trained.
     *
     * @param model the model
     */
    public void setModel(TrainingTarget model) {
        this.model = model;
    }

    /**
     * Called by {@code fit} before training starts with the run's epochs, steps and verbosity.
     *
     * @param params the parameters of the run
     */
    public void setParams(TrainingParams params) {
        this.params = params;
    }

    /**
     * Called once when training starts.
     *
     * @param logs empty at this point
     */
    public void onTrainBegin(Map<String, Double> logs) {
    }

    /**
     * Called once when training ends normally, also when stopped early.
     *
     * @param logs an empty map; the epochs' values are in {@link History}
     */
    public void onTrainEnd(Map<String, Double> logs) {
    }

    /**
     * Called instead of {@link #onTrainEnd} when {@code fit} stops with an exception, even one thrown by another
     * callback's {@link #onTrainBegin} (not a Keras hook): release files and other resources here, so that what was
     * written survives. The exception then propagates.
     *
     * @param error the exception that stopped {@code fit}
     */
    public void onTrainFailed(Throwable error) {
    }

    /**
     * Called at the start of each epoch.
     *
     * @param epoch the epoch, from 0
     * @param logs empty at this point
     */
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
    }

    /**
     * Called at the end of each epoch, after validation.
     *
     * @param epoch the epoch, from 0
     * @param logs the epoch's metrics, including {@code val_} ones; a callback may add entries
     */
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
    }

    /**
     * Called before each training batch.
     *
     * @param batch the batch within the epoch, from 0
     * @param logs the running metrics of the epoch before this batch (empty for its first batch)
     */
    public void onTrainBatchBegin(int batch, Map<String, Double> logs) {
    }

    /**
     * Called after each training batch.
     *
     * @param batch the batch within the epoch, from 0
     * @param logs the running loss and metrics of the epoch, this batch included
     */
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
    }

    /**
     * Keras' hook for the start of an evaluation; {@code fit} and {@code evaluate} do not call it yet.
     *
     * @param logs empty
     */
    public void onTestBegin(Map<String, Double> logs) {
    }

    /**
     * Keras' hook for the end of an evaluation; {@code fit} and {@code evaluate} do not call it yet.
     *
     * @param logs the evaluation's metrics
     */
    public void onTestEnd(Map<String, Double> logs) {
    }
}
