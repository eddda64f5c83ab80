package dev.brisk.callbacks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Saves the weights at the end of each epoch, or only when the monitored metric improves ({@code saveBestOnly}).
 * Files are written to a temporary file and renamed, so a crash never damages the last good checkpoint. The path
 * may contain {@code {epoch}} or {@code {epoch:02d}} (1-based).
 */
public final class ModelCheckpoint extends Callback {
    private static final Pattern EPOCH = Pattern.compile("\\{epoch(?::0?(\\d+)d)?}");
    private final String path;
    private final String monitor;
    private final boolean saveBestOnly;
    private final boolean maximise;
    private double best = Double.NaN;

    public ModelCheckpoint(String path, String monitor, boolean saveBestOnly, Monitor mode) {
        this.path = path;
        this.monitor = monitor;
        this.saveBestOnly = saveBestOnly;
        this.maximise = mode.maximises(monitor);
    }

    /** Keras' defaults: monitor "val_loss", save every epoch. */
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
        Path file = Path.of(fileFor(epoch));
        try {
            model.saveWeights(file);
        } catch (IOException e) {
            throw new UncheckedIOException("ModelCheckpoint: could not write " + file + " at epoch " + (epoch + 1), e);
        }
    }

    String fileFor(int epoch) {
        Matcher m = EPOCH.matcher(path);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String width = m.group(1);
            String value = width == null ? Integer.toString(epoch + 1)
                    : String.format("%0" + width + "d", epoch + 1);
            m.appendReplacement(sb, value);
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
