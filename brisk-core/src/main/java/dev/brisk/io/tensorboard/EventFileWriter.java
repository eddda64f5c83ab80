package dev.brisk.io.tensorboard;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;

/**
 * Writes a TensorBoard event file without TensorFlow: TFRecord framing around hand-encoded {@code Event} messages
 * (TensorBoard's {@code event.proto} and {@code summary.proto}). The file is
 * {@code DIR/events.out.tfevents.<seconds>.<host>} (with {@code .1}, {@code .2}, ... appended if that name is taken),
 * and its first event is {@code file_version: "brain.Event:2"}, as TensorFlow's writers make them.
 *
 * <p>Scalars are {@code simple_value}s, histograms {@code HistogramProto}s, text a string tensor for the text plugin.
 * Events are buffered: {@link #flush()} puts them on disk (TensorBoard reads a file while it grows), and
 * {@link #close()} ends the file. Every I/O error names the file.
 */
public final class EventFileWriter implements Closeable {
    /** The {@code file_version} of the first event. */
    public static final String FILE_VERSION = "brain.Event:2";

    // Field numbers, from TensorBoard's published .proto definitions (tensorboard/compat/proto).
    private static final int EVENT_WALL_TIME = 1;
    private static final int EVENT_STEP = 2;
    private static final int EVENT_FILE_VERSION = 3;
    private static final int EVENT_SUMMARY = 5;
    private static final int EVENT_SOURCE_METADATA = 10;
    private static final int SOURCE_METADATA_WRITER = 1;
    private static final int SUMMARY_VALUE = 1;
    private static final int VALUE_TAG = 1;
    private static final int VALUE_SIMPLE_VALUE = 2;
    private static final int VALUE_HISTO = 5;
    private static final int VALUE_TENSOR = 8;
    private static final int VALUE_METADATA = 9;
    private static final int METADATA_PLUGIN_DATA = 1;
    private static final int METADATA_DATA_CLASS = 4;
    private static final int PLUGIN_DATA_PLUGIN_NAME = 1;
    private static final int TENSOR_DTYPE = 1;
    private static final int TENSOR_SHAPE = 2;
    private static final int TENSOR_STRING_VAL = 8;
    private static final int DT_STRING = 7;
    private static final int DATA_CLASS_TENSOR = 2;

    private final Path file;
    private final OutputStream out;
    private final TfRecordWriter records;
    private boolean closed;

    private EventFileWriter(Path file, OutputStream out) {
        this.file = file;
        this.out = out;
        this.records = new TfRecordWriter(out);
    }

    /**
     * Creates {@code dir} if needed and a new event file in it, and writes the file-version event.
     *
     * @param dir the log directory, e.g. {@code logs/train}
     * @return a writer for the new event file; close it to flush and release the file
     * @throws IOException if the directory or file cannot be created or written
     */
    public static EventFileWriter open(Path dir) throws IOException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IOException("cannot create the TensorBoard log directory " + dir + ": " + e, e);
        }
        String base = String.format(Locale.ROOT, "events.out.tfevents.%010d.%s", Instant.now().getEpochSecond(),
                HostName.get());
        for (int n = 0; ; n++) {
            Path f = dir.resolve(n == 0 ? base : base + "." + n);
            OutputStream os;
            try {
                os = Files.newOutputStream(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                continue;
            } catch (IOException e) {
                throw new IOException("cannot create the TensorBoard event file " + f + ": " + e, e);
            }
            EventFileWriter w = new EventFileWriter(f, new BufferedOutputStream(os, 1 << 16));
            ProtoWriter source = new ProtoWriter().stringField(SOURCE_METADATA_WRITER, "brisk");
            w.writeEvent(0, EVENT_FILE_VERSION, FILE_VERSION.getBytes(StandardCharsets.UTF_8), source);
            return w;
        }
    }

    /**
     * The event file.
     *
     * @return the path of the event file written
     */
    public Path file() {
        return file;
    }

    /**
     * A scalar (stored as a 32-bit float, as TensorBoard's {@code simple_value}).
     *
     * @param tag the series name, e.g. {@code epoch_loss}
     * @param step the x value, e.g. the epoch or the global step
     * @param value the value
     * @throws IOException if the event cannot be written
     */
    public synchronized void scalar(String tag, long step, double value) throws IOException {
        ProtoWriter v = new ProtoWriter().stringField(VALUE_TAG, tag).floatField(VALUE_SIMPLE_VALUE, (float) value);
        writeSummary(step, v);
    }

    /**
     * A histogram, shown by TensorBoard's histogram and distribution dashboards.
     *
     * @param tag the series name, e.g. {@code dense/kernel/histogram}
     * @param step the x value, e.g. the epoch
     * @param h the histogram
     * @throws IOException if the event cannot be written
     */
    public synchronized void histogram(String tag, long step, Histogram h) throws IOException {
        ProtoWriter v = new ProtoWriter().stringField(VALUE_TAG, tag).messageField(VALUE_HISTO, h.toProto());
        writeSummary(step, v);
    }

    /**
     * Markdown text, shown by TensorBoard's text dashboard.
     *
     * @param tag the series name
     * @param step the x value
     * @param markdown the text, in Markdown
     * @throws IOException if the event cannot be written
     */
    public synchronized void text(String tag, long step, String markdown) throws IOException {
        ProtoWriter tensor = new ProtoWriter()
                .varintField(TENSOR_DTYPE, DT_STRING)
                .messageField(TENSOR_SHAPE, new ProtoWriter()) // rank 0: a shape with no dimensions
                .bytesField(TENSOR_STRING_VAL, markdown.getBytes(StandardCharsets.UTF_8));
        ProtoWriter metadata = new ProtoWriter()
                .messageField(METADATA_PLUGIN_DATA, new ProtoWriter().stringField(PLUGIN_DATA_PLUGIN_NAME, "text"))
                .varintField(METADATA_DATA_CLASS, DATA_CLASS_TENSOR);
        ProtoWriter v = new ProtoWriter()
                .stringField(VALUE_TAG, tag)
                .messageField(VALUE_METADATA, metadata)
                .messageField(VALUE_TENSOR, tensor);
        writeSummary(step, v);
    }

    /**
     * Puts every event written so far into the file.
     *
     * @throws IOException if the file cannot be written
     */
    public synchronized void flush() throws IOException {
        checkOpen();
        try {
            out.flush();
        } catch (IOException e) {
            throw failure("write", e);
        }
    }

    /** Flushes and closes the file; closing again does nothing. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            throw failure("close", e);
        }
    }

    private void writeSummary(long step, ProtoWriter value) throws IOException {
        ProtoWriter summary = new ProtoWriter().messageField(SUMMARY_VALUE, value);
        writeEvent(step, EVENT_SUMMARY, null, summary);
    }

    /** One Event: wall time, step, then either a file version (bytes) or a summary (message). */
    private void writeEvent(long step, int whatField, byte[] bytes, ProtoWriter message) throws IOException {
        checkOpen();
        Instant now = Instant.now();
        ProtoWriter event = new ProtoWriter()
                .doubleField(EVENT_WALL_TIME, now.getEpochSecond() + now.getNano() / 1e9)
                .varintField(EVENT_STEP, step);
        if (bytes != null) {
            event.bytesField(whatField, bytes);
            event.messageField(EVENT_SOURCE_METADATA, message);
        } else {
            event.messageField(whatField, message);
        }
        try {
            records.write(event.toByteArray());
        } catch (IOException e) {
            throw failure("write", e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("TensorBoard event file " + file + " is closed");
        }
    }

    private IOException failure(String what, IOException e) {
        return new IOException("cannot " + what + " the TensorBoard event file " + file + ": " + e, e);
    }

    @Override
    public String toString() {
        return "EventFileWriter[" + file + "]";
    }
}
