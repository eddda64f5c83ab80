package dev.brisk.callbacks;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * Keras' progress bar: per epoch, steps done, ETA, running loss and metrics and samples/s; at the end of an epoch
 * the wall time, time per step, every value of the epoch's logs (validation metrics, and the {@code cpu_util} and
 * {@code input_wait} that fit adds) and the throughput. On a terminal the line is
 * redrawn in place; otherwise (logs, CI) only the final line of each epoch is printed. Verbose 2 prints one line per
 * epoch without the bar.
 */
public final class ProgressBar extends Callback {
    private static final int WIDTH = 30;
    private final PrintStream out;
    private final boolean interactive;
    private int verbose = 1;
    private long epochStart;
    private long lastDraw;
    private int batchSize;
    /** Steps of an epoch: given by the fit, else learned from the first epoch (0 until then: "Unknown"). */
    private int steps;
    /** Batches finished in the current epoch. */
    private int done;

    /**
     * A progress bar printing to {@code out}.
     *
     * @param out where to print, e.g. {@code System.out}
     * @param interactive true on a terminal, where the line is redrawn in place; false for logs and CI
     */
    public ProgressBar(PrintStream out, boolean interactive) {
        this.out = out;
        this.interactive = interactive;
    }

    /** Prints to standard output, redrawing in place when it is a terminal. */
    public ProgressBar() {
        this(System.out, System.console() != null && System.console().isTerminal());
    }

    @Override
    public void setParams(TrainingParams params) {
        super.setParams(params);
        this.verbose = params.verbose();
        this.steps = params.stepsPerEpoch();
        // Without a step count (a pipeline of unknown length), samplesPerEpoch holds the first batch's size.
        this.batchSize = steps == 0 ? params.samplesPerEpoch()
                : (params.samplesPerEpoch() + steps - 1) / steps;
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        if (verbose > 0) {
            out.println("Epoch " + (epoch + 1) + "/" + params.epochs());
        }
        epochStart = System.nanoTime();
        lastDraw = 0;
        done = 0;
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        done = batch + 1;
        if (verbose != 1 || !interactive) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastDraw < 100_000_000L && (steps == 0 || done < steps)) {
            return;
        }
        lastDraw = now;
        double elapsed = (now - epochStart) / 1e9;
        long samples = (long) done * batchSize;
        String progress;
        if (steps > 0) {
            samples = Math.min(samples, (long) steps * batchSize);
            if (params.stepsPerEpoch() > 0) {
                samples = Math.min(samples, params.samplesPerEpoch());
            }
            double eta = elapsed / done * Math.max(0, steps - done);
            progress = counter(done) + " " + bar(done) + " - ETA: " + formatSeconds(eta);
        } else {
            progress = counter(done) + " - " + formatSeconds(elapsed);
        }
        String line = progress + metrics(logs)
                + String.format(Locale.ROOT, " - %.0f samples/s", samples / Math.max(elapsed, 1e-9));
        out.print("\r" + line);
        out.flush();
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        if (steps == 0) {
            steps = done; // as Keras, an epoch of unknown length tells the next ones their total
        }
        if (verbose == 0) {
            return;
        }
        // Like Keras, the epoch time includes validation; time per step counts training only.
        double elapsed = (System.nanoTime() - epochStart) / 1e9;
        EpochStats stats = model == null ? null : model.lastEpochStats();
        double trainSeconds = stats != null ? stats.wallSeconds() : elapsed;
        StringBuilder line = new StringBuilder();
        if (verbose == 1) {
            line.append(counter(done)).append(' ').append(bar(done)).append(" - ");
        } else {
            line.append(counter(done)).append(" - ");
        }
        line.append(formatSeconds(elapsed)).append(' ')
                .append(String.format(Locale.ROOT, "%.0fms/step", trainSeconds * 1000 / Math.max(done, 1)))
                .append(metrics(logs));
        if (stats != null) {
            line.append(String.format(Locale.ROOT, " - %.0f samples/s", stats.samplesPerSecond()));
        }
        out.print((interactive && verbose == 1 ? "\r" : "") + line + "\n");
        out.flush();
    }

    private String counter(int done) {
        String total = steps > 0 ? Integer.toString(steps) : "Unknown";
        return String.format(Locale.ROOT, "%" + total.length() + "d/%s", done, total);
    }

    private String bar(int done) {
        int total = Math.max(steps, 1);
        int filled = (int) ((long) WIDTH * done / total);
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < WIDTH; i++) {
            sb.append(i < filled ? '=' : (i == filled && done < total ? '>' : (i < filled ? '=' : '.')));
        }
        return sb.append(']').toString();
    }

    private static String metrics(Map<String, Double> logs) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Double> e : logs.entrySet()) {
            sb.append(" - ").append(e.getKey()).append(": ").append(String.format(Locale.ROOT, "%.4f", e.getValue()));
        }
        return sb.toString();
    }

    private static String formatSeconds(double s) {
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%d:%02d:%02d", (long) s / 3600, ((long) s % 3600) / 60, (long) s % 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%d:%02d", (long) s / 60, (long) s % 60);
        }
        return String.format(Locale.ROOT, "%.0fs", s);
    }
}
