package dev.brisk.callbacks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Saves the weights at the end of each epoch, or only when the monitored metric improves ({@code saveBestOnly}).
 * Files are written to a temporary file and renamed, so a crash never damages the last good checkpoint; a temporary
 * left by a process killed mid-save is removed by the next save of the same file, a new file gets the permissions the
 * process umask gives and an existing one keeps its own (see {@link dev.brisk.io.AtomicFiles}). As in Keras,
 * the path may name the epoch (1-based) and any value of the epoch's logs, with Python format specs:
 * {@code weights-{epoch:02d}-{val_loss:.2f}.brisk} (see {@link FileNameTemplate}).
 */
public final class ModelCheckpoint extends Callback {
    private final FileNameTemplate path;
    private final String monitor;
    private final boolean saveBestOnly;
    private final boolean maximise;
    private double best = Double.NaN;

    /**
     * A checkpoint that saves to {@code path}, every epoch or only on improvement of {@code monitor}.
     *
     * @param path the file name template, e.g. {@code weights-{epoch:02d}.brisk}
     * @param monitor the metric that decides improvement, e.g. {@code val_loss}
     * @param saveBestOnly true to save only when {@code monitor} improves
     * @param mode which direction is an improvement
     */
    public ModelCheckpoint(String path, String monitor, boolean saveBestOnly, Monitor mode) {
        this.path = new FileNameTemplate(path);
        this.monitor = monitor;
        this.saveBestOnly = saveBestOnly;
        this.maximise = mode.maximises(monitor);
    }

    /**
     * Keras' defaults: monitor "val_loss", save every epoch.
     *
     * @param path the file name template
     */
    public ModelCheckpoint(String path) {
        this(path, "val_loss", false, Monitor.AUTO);
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        if (saveBestOnly) {
            Double current = logs.get(monitor);
            if (current == null) {
                System.err.println("ModelCheckpoint: can save best model only with '" + monitor
                        + "' available, skipping; available: " + logs.keySet());
                return;
            }
            if (!Monitor.improves(maximise, current, best, 0)) {
                return;
            }
            best = current;
        }
        Path file = Path.of(fileFor(epoch, logs));
        try {
            model.saveWeights(file);
        } catch (IOException e) {
            throw new UncheckedIOException("ModelCheckpoint: could not write " + file + " at epoch " + (epoch + 1), e);
        }
    }

    /** The file for {@code epoch} (0-based) with these logs. */
    String fileFor(int epoch, Map<String, Double> logs) {
        Map<String, Number> values = new LinkedHashMap<>(logs);
        values.put("epoch", epoch + 1);
        return path.format(values);
    }
}
