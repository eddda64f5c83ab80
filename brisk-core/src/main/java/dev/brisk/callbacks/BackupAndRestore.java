package dev.brisk.callbacks;

import dev.brisk.io.WeightsFile;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keras' {@code BackupAndRestore}: backs training up to a directory at the end of every epoch (or every N steps),
 * and when a run starts and finds a backup there, restores it and continues where the backup was taken, so that a
 * run killed at any point and started again with the same command ends as an uninterrupted run would have (same
 * seed, same data). The backup is deleted when training ends successfully; a failed run keeps it.
 *
 * <p>A backup is everything the next steps depend on ({@link TrainingTarget#trainingState()}: weights, the
 * optimizer's step count, learning rate and slots, the random state) and where the run stood (epoch, batches of it
 * done), in one weights file ({@code backup.weights}, format {@code BRISKW02}: a CRC-32C per tensor) written to a
 * temporary file, flushed to disk and renamed over the old one: a kill while writing leaves the previous backup,
 * and a damaged one is refused with an error that says what was found rather than loaded.
 */
public final class BackupAndRestore extends Callback {
    /** The backup's file name inside the directory. */
    public static final String FILE = "backup.weights";
    private final Path dir;
    private int everySteps;
    private boolean deleteOnSuccess = true;
    private int epoch;
    private long steps;

    /**
     * Backs up into {@code backupDir} at the end of every epoch.
     *
     * @param backupDir the directory (created when needed); use one per training run
     */
    public BackupAndRestore(Path backupDir) {
        this.dir = backupDir;
    }

    /**
     * Backs up every {@code n} training steps instead of every epoch (Keras' {@code save_freq=n}).
     *
     * @param n the steps between backups, at least 1
     * @return this callback
     */
    public BackupAndRestore everySteps(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("backup interval must be at least 1 step, got " + n);
        }
        this.everySteps = n;
        return this;
    }

    /**
     * Whether the backup is deleted when training ends successfully (Keras' {@code delete_checkpoint}, default
     * true).
     *
     * @param delete false to keep the last backup
     * @return this callback
     */
    public BackupAndRestore deleteOnSuccess(boolean delete) {
        this.deleteOnSuccess = delete;
        return this;
    }

    /**
     * The backup file.
     *
     * @return {@code backupDir/backup.weights}
     */
    public Path file() {
        return dir.resolve(FILE);
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        steps = 0;
        Path f = file();
        if (!Files.exists(f)) {
            return;
        }
        Map<String, Tensor> saved;
        try {
            saved = new LinkedHashMap<>(WeightsFile.load(f));
        } catch (IOException e) {
            throw new UncheckedIOException("BackupAndRestore: the backup " + f + " cannot be restored (" + e.getMessage()
                    + "); delete it to train from the start", e);
        }
        Tensor where = saved.remove("progress/epoch_batch");
        if (where == null || where.shape().size() != 2) {
            throw new IllegalStateException("BackupAndRestore: the backup " + f + " has no progress entry; it was not "
                    + "written by BackupAndRestore");
        }
        try {
            model.restoreTrainingState(saved);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("BackupAndRestore: the backup " + f + " does not fit this model: "
                    + e.getMessage(), e);
        }
        model.resumeAt((int) where.get(0), (int) where.get(1));
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        this.epoch = epoch;
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        if (everySteps > 0 && ++steps % everySteps == 0) {
            backup(epoch, batch + 1);
        }
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        if (everySteps == 0) {
            backup(epoch + 1, 0);
        }
    }

    @Override
    public void onTrainEnd(Map<String, Double> logs) {
        if (!deleteOnSuccess) {
            return;
        }
        try {
            Files.deleteIfExists(file());
            try (var left = Files.list(dir)) {
                if (left.findAny().isEmpty()) {
                    Files.delete(dir);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("BackupAndRestore: could not delete the backup in " + dir, e);
        }
    }

    private void backup(int nextEpoch, int batchesDone) {
        Map<String, Tensor> state = new LinkedHashMap<>(model.trainingState());
        // Epoch and batch counts are far below 2^24, so floats hold them exactly.
        state.put("progress/epoch_batch", Tensor.of(new float[] {nextEpoch, batchesDone}, 2));
        try {
            Files.createDirectories(dir);
            WeightsFile.save(file(), state);
        } catch (IOException e) {
            throw new UncheckedIOException("BackupAndRestore: could not write the backup " + file(), e);
        }
    }
}
