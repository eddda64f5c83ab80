package dev.brisk.callbacks;

import dev.brisk.io.tensorboard.EventFileWriter;
import dev.brisk.io.tensorboard.Histogram;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Writes TensorBoard event files (Keras' {@code TensorBoard} callback), without TensorFlow: open them with
 * {@code tensorboard --logdir DIR}. Training figures go to {@code DIR/train}, validation figures to
 * {@code DIR/validation}, each in an {@code events.out.tfevents.<seconds>.<host>} file.
 *
 * <ul>
 *   <li>Every epoch (step = epoch, from 0): {@code epoch_<metric>} for the loss and each metric (validation ones in
 *       the validation run, without their {@code val_} prefix), {@code epoch_learning_rate},
 *       {@code epoch_samples_per_second} and {@code epoch_cpu_utilisation} (process CPU time over wall time).</li>
 *   <li>Every {@link #updateFreq(int) updateFreq} steps (step = training batches so far): {@code batch_<metric>}
 *       (the epoch's running values, as Keras), {@code batch_learning_rate} and {@code batch_steps_per_second}.</li>
 *   <li>Every {@link #histogramFreq(int) histogramFreq} epochs: a histogram of each weight
 *       ({@code <weight>/histogram}) and, unless turned off, of its gradient on the epoch's last batch
 *       ({@code <weight>/gradient_histogram}, which costs one extra eager forward and backward pass).</li>
 *   <li>Once, at step 0: the model summary as text ({@code model_summary}).</li>
 * </ul>
 * Files are flushed at the end of each epoch and closed at the end of training. Errors name the file.
 */
public final class TensorBoard extends Callback {
    private final Path logDir;
    private int histogramFreq;
    private int updateFreq;
    private boolean writeGradients = true;
    private boolean writeModelSummary = true;

    private EventFileWriter train;
    private EventFileWriter validation;
    private long globalStep;
    private long windowStartNanos;
    private long windowSteps;
    private Map<String, Tensor> gradientsBefore;

    /**
     * Writes under {@code logDir} (Keras' {@code log_dir}), with histograms off and scalars once an epoch.
     *
     * @param logDir the log directory; training events go to {@code train/}, validation events to {@code validation/}
     */
    public TensorBoard(Path logDir) {
        this.logDir = logDir;
    }

    /**
     * Writes weight (and gradient) histograms every {@code epochs} epochs; 0 (the default) turns them off.
     *
     * @param epochs the interval in epochs; 0 for none
     * @return this callback
     */
    public TensorBoard histogramFreq(int epochs) {
        if (epochs < 0) {
            throw new IllegalArgumentException("histogramFreq must be 0 (off) or positive, got " + epochs);
        }
        this.histogramFreq = epochs;
        return this;
    }

    /**
     * Writes batch-level scalars every {@code steps} training steps; 0 (the default) writes only per epoch.
     *
     * @param steps the interval in training steps; 0 for per-epoch scalars only
     * @return this callback
     */
    public TensorBoard updateFreq(int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("updateFreq must be 0 (per epoch) or positive, got " + steps);
        }
        this.updateFreq = steps;
        return this;
    }

    /**
     * Whether histogram epochs also write gradient histograms (default true).
     *
     * @param write true to write gradient histograms too
     * @return this callback
     */
    public TensorBoard writeGradients(boolean write) {
        this.writeGradients = write;
        return this;
    }

    /**
     * Whether to write the model summary as text when training begins (default true).
     *
     * @param write true to write the summary
     * @return this callback
     */
    public TensorBoard writeModelSummary(boolean write) {
        this.writeModelSummary = write;
        return this;
    }

    /**
     * The log directory, as given.
     *
     * @return the log directory
     */
    public Path logDir() {
        return logDir;
    }

    /**
     * The training event file being (or last) written; null before training began.
     *
     * @return the event file, or null
     */
    public Path trainEventFile() {
        return train == null ? null : train.file();
    }

    /**
     * The validation event file being (or last) written; null until an epoch had validation figures.
     *
     * @return the event file, or null
     */
    public Path validationEventFile() {
        return validation == null ? null : validation.file();
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        closeWriters();
        train = null;
        validation = null;
        globalStep = 0;
        windowSteps = 0;
        windowStartNanos = System.nanoTime();
        guard(() -> {
            train = EventFileWriter.open(logDir.resolve("train"));
            String summary = writeModelSummary && model != null ? model.summary() : null;
            if (summary != null) {
                train.text("model_summary", 0, codeBlock(summary));
            }
        });
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        gradientsBefore = null;
        if (wantsGradients(epoch)) {
            gradientsBefore = model.capturedGradients();
        }
    }

    @Override
    public void onTrainBatchBegin(int batch, Map<String, Double> logs) {
        if (gradientsBefore == null) {
            return;
        }
        int steps = params == null ? 0 : params.stepsPerEpoch();
        if (batch == (steps > 0 ? steps - 1 : 0)) {
            model.captureGradientsOfNextStep();
        }
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        globalStep++;
        windowSteps++;
        if (updateFreq == 0 || globalStep % updateFreq != 0) {
            return;
        }
        long now = System.nanoTime();
        double seconds = (now - windowStartNanos) / 1e9;
        double stepsPerSecond = seconds > 0 ? windowSteps / seconds : 0;
        windowStartNanos = now;
        windowSteps = 0;
        guard(() -> {
            for (Map.Entry<String, Double> e : logs.entrySet()) {
                train.scalar("batch_" + e.getKey(), globalStep, e.getValue());
            }
            if (!logs.containsKey("learning_rate") && model != null) {
                train.scalar("batch_learning_rate", globalStep, model.optimizer().learningRate());
            }
            train.scalar("batch_steps_per_second", globalStep, stepsPerSecond);
        });
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        guard(() -> {
            Set<String> written = new HashSet<>();
            for (Map.Entry<String, Double> e : logs.entrySet()) {
                String key = e.getKey();
                if (key.startsWith("val_")) {
                    if (validation == null) {
                        validation = EventFileWriter.open(logDir.resolve("validation"));
                    }
                    validation.scalar("epoch_" + key.substring(4), epoch, e.getValue());
                } else {
                    train.scalar("epoch_" + key, epoch, e.getValue());
                    written.add(key);
                }
            }
            if (!written.contains("learning_rate") && model != null) {
                train.scalar("epoch_learning_rate", epoch, model.optimizer().learningRate());
            }
            EpochStats stats = model == null ? null : model.lastEpochStats();
            if (stats != null) {
                if (!written.contains("samples_per_second")) {
                    train.scalar("epoch_samples_per_second", epoch, stats.samplesPerSecond());
                }
                if (!written.contains("cpu_utilisation")) {
                    train.scalar("epoch_cpu_utilisation", epoch, stats.cpuUtilisation());
                }
            }
            if (histogramFreq > 0 && epoch % histogramFreq == 0 && model != null) {
                writeHistograms(epoch);
            }
            train.flush();
            if (validation != null) {
                validation.flush();
            }
        });
    }

    @Override
    public void onTrainEnd(Map<String, Double> logs) {
        guard(() -> {
            EventFileWriter t = train;
            EventFileWriter v = validation;
            try {
                if (t != null) {
                    t.close();
                }
            } finally {
                if (v != null) {
                    v.close();
                }
            }
        });
    }

    /** Flushes and closes the event files, so everything logged before the failure can be read. */
    @Override
    public void onTrainFailed(Throwable error) {
        closeWriters();
    }

    private boolean wantsGradients(int epoch) {
        return writeGradients && histogramFreq > 0 && epoch % histogramFreq == 0 && model != null;
    }

    private void writeHistograms(int epoch) throws IOException {
        for (Map.Entry<String, Tensor> w : model.weightsByName().entrySet()) {
            train.histogram(w.getKey() + "/histogram", epoch, Histogram.of(w.getValue()));
        }
        Map<String, Tensor> grads = model.capturedGradients();
        if (gradientsBefore != null && grads != gradientsBefore) {
            for (Map.Entry<String, Tensor> g : grads.entrySet()) {
                train.histogram(g.getKey() + "/gradient_histogram", epoch, Histogram.of(g.getValue()));
            }
        }
        gradientsBefore = null;
    }

    /** Markdown for TensorBoard's text dashboard: an indented block keeps the table's columns. */
    private static String codeBlock(String text) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            sb.append("    ").append(line).append('\n');
        }
        return sb.toString();
    }

    private interface Io {
        void run() throws IOException;
    }

    /** Runs event-file I/O; on failure closes the files and reports the error (which names the file). */
    private void guard(Io io) {
        try {
            io.run();
        } catch (IOException e) {
            closeWriters();
            throw new UncheckedIOException("TensorBoard: " + e.getMessage(), e);
        }
    }

    private void closeWriters() {
        for (EventFileWriter w : new EventFileWriter[] {train, validation}) {
            if (w != null) {
                try {
                    w.close();
                } catch (IOException ignored) {
                    // already failing: the first error is the one reported
                }
            }
        }
    }
}
