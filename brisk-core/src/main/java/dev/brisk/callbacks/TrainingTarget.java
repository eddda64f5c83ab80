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

    boolean stopRequested();

    Optimizer optimizer();

    /** Copies of all weights, by name. */
    Map<String, Tensor> weightsByName();

    /** Overwrites weights by name. */
    void setWeightsByName(Map<String, Tensor> weights);

    /** Saves the weights atomically to {@code file}. */
    void saveWeights(Path file) throws IOException;

    /** Throughput and CPU figures of the last finished epoch (null before the first). */
    EpochStats lastEpochStats();
}
