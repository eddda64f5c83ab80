package dev.brisk.callbacks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Streams epoch results to a CSV file: an "epoch" column, then the log keys in sorted order (as Keras' CSVLogger). */
public final class CsvLogger extends Callback {
    private final Path file;
    private final String separator;
    private final boolean append;
    private Writer out;
    private List<String> keys;

    /**
     * A logger that writes to {@code file} with the given separator.
     *
     * @param file the CSV file
     * @param separator the column separator, Keras' default {@code ","}
     * @param append true to add to an existing file (no header is written again), false to overwrite it
     */
    public CsvLogger(Path file, String separator, boolean append) {
        this.file = file;
        this.separator = separator;
        this.append = append;
    }

    /**
     * A logger that writes comma-separated values to {@code file}, overwriting it.
     *
     * @param file the CSV file
     */
    public CsvLogger(Path file) {
        this(file, ",", false);
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        try {
            boolean hasHeader = append && Files.exists(file) && Files.size(file) > 0;
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
            keys = hasHeader ? List.of() : null;
        } catch (IOException e) {
            throw new UncheckedIOException("CSVLogger: cannot open " + file, e);
        }
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        try {
            if (keys == null || keys.isEmpty()) {
                List<String> sorted = new ArrayList<>(logs.keySet());
                Collections.sort(sorted);
                if (keys == null) {
                    out.write("epoch" + separator + String.join(separator, sorted) + "\n");
                }
                keys = sorted;
            }
            StringBuilder row = new StringBuilder().append(epoch);
            for (String k : keys) {
                Double v = logs.get(k);
                row.append(separator).append(v == null ? "NA" : v.toString());
            }
            out.write(row.append('\n').toString());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("CSVLogger: cannot write " + file, e);
        }
    }

    @Override
    public void onTrainEnd(Map<String, Double> logs) {
        IOException e = close();
        if (e != null) {
            throw new UncheckedIOException("CSVLogger: cannot close " + file, e);
        }
    }

    /** Closes the file; every finished epoch's row is already in it. */
    @Override
    public void onTrainFailed(Throwable error) {
        IOException e = close();
        if (e != null) {
            error.addSuppressed(e);
        }
    }

    /** Closes the file if it is open; returns what closing threw, or null. */
    private IOException close() {
        try {
            if (out != null) {
                out.close();
            }
            return null;
        } catch (IOException e) {
            return e;
        } finally {
            out = null;
        }
    }
}
