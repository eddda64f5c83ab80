package dev.brisk.callbacks;

import dev.brisk.optimizers.Optimizer;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** What a callback may see and do to the model being trained (Keras callbacks' {@code self.model}). */
public interface TrainingTarget {
    /** Asks training to stop after the current batch. */
    void stopTraining();

    /**
     * Whether {@link #stopTraining()} was called since training began.
     *
     * @return true when training will stop after the current batch
     */
    boolean stopRequested();

    /**
     * The optimiser of the model, e.g. for changing its learning rate.
     *
     * @return the optimiser
     */
    Optimizer optimizer();

    /**
     * Copies of all weights, by name.
     *
     * @return a map from weight name to a copy of its value
     */
    Map<String, Tensor> weightsByName();

    /**
     * Overwrites weights by name.
     *
     * @param weights new values by weight name; each must have the weight's shape
     */
    void setWeightsByName(Map<String, Tensor> weights);

    /**
     * Saves the weights atomically to {@code file}.
     *
     * @param file the weights file to write
     * @throws IOException if the file cannot be written
     */
    void saveWeights(Path file) throws IOException;

    /**
     * Throughput and CPU figures of the last finished epoch (null before the first).
     *
     * @return the last epoch's figures, or null
     */
    EpochStats lastEpochStats();

    /**
     * The model's summary table (Keras' {@code model.summary()}), or null if the target has none.
     *
     * @return the summary, or null
     */
    default String summary() {
        return null;
    }

    /**
     * Asks for the gradients of the next training step: the gradients of the loss for that step's batch with
     * respect to each trainable weight, before the optimizer applies them (and before clipping). They are
     * computed by one extra eager forward and backward pass, so ask only now and then (once an epoch at most).
     * A target that cannot does nothing, and {@link #capturedGradients()} stays empty.
     */
    default void captureGradientsOfNextStep() {
    }

    /**
     * The gradients captured for the last request, by weight name; empty before one was captured.
     *
     * @return the gradients by weight name; empty when none were captured
     */
    default Map<String, Tensor> capturedGradients() {
        return Map.of();
    }

    /**
     * Everything the next train steps depend on, as named tensors (weights, the optimizer's state, the random
     * state): what {@link BackupAndRestore} saves.
     *
     * @return the state, by name
     */
    default Map<String, Tensor> trainingState() {
        throw new UnsupportedOperationException("this model cannot save its training state");
    }

    /**
     * Restores a state made by {@link #trainingState()}; one that does not fit changes nothing.
     *
     * @param state the saved state
     * @throws IllegalArgumentException naming the entry that is missing or of another shape
     */
    default void restoreTrainingState(Map<String, Tensor> state) {
        throw new UnsupportedOperationException("this model cannot restore a training state");
    }

    /**
     * Makes the fit that is starting continue at {@code epoch}, whose first {@code batch} batches were trained
     * already (called from {@code onTrainBegin}).
     *
     * @param epoch the epoch to continue
     * @param batch the batches of it already trained
     */
    default void resumeAt(int epoch, int batch) {
        throw new UnsupportedOperationException("this model cannot resume");
    }
}
