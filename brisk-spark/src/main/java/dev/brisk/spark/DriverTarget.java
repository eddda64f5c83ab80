package dev.brisk.spark;

import dev.brisk.callbacks.EpochStats;
import dev.brisk.callbacks.TrainingTarget;
import dev.brisk.nn.Model;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The driver's model as its callbacks see it while the workers train: its weights are those of the last finished
 * epoch (rank 0 sends them), a stop request is kept here and passed on to the workers, and the epoch's stats come
 * from the workers' logs. Restoring a training state (BackupAndRestore) has no meaning on the driver and is refused
 * by {@link SparkFit#callbacks}: its checkpoints do that job.
 */
final class DriverTarget implements TrainingTarget {
    private final Model model;
    private final int threads;
    private volatile boolean stop;
    private volatile EpochStats stats;

    DriverTarget(Model model, int threads) {
        this.model = model;
        this.threads = threads;
    }

    /** The stats of an epoch, rebuilt from its logs ({@code epoch_s}, {@code cpu_util}, {@code input_wait}). */
    void epochEnded(long samples, Map<String, Double> logs) {
        double wall = logs.getOrDefault("epoch_s", 0.0);
        stats = new EpochStats(samples, wall, logs.getOrDefault("cpu_util", 0.0) * wall * threads,
                logs.getOrDefault("input_wait", 0.0) * wall, threads);
    }

    @Override
    public void stopTraining() {
        stop = true;
    }

    @Override
    public boolean stopRequested() {
        return stop;
    }

    @Override
    public Optimizer optimizer() {
        return model.optimizer();
    }

    @Override
    public Map<String, Tensor> weightsByName() {
        return model.weightsByName();
    }

    @Override
    public void setWeightsByName(Map<String, Tensor> weights) {
        model.setWeightsByName(weights);
    }

    @Override
    public void saveWeights(Path file) throws IOException {
        model.saveWeights(file);
    }

    @Override
    public EpochStats lastEpochStats() {
        return stats;
    }

    @Override
    public String summary() {
        return model.summary();
    }
}
