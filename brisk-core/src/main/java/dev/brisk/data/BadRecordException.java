package dev.brisk.data;

import java.nio.file.Path;

/**
 * One record of the input could not be read: a CSV row with the wrong number of columns or a value that is not a
 * number, an image that cannot be decoded. The message names the file and the record. The pipeline stops with
 * this exception unless {@link Pipeline#ignoreErrors} drops such records (and counts them); errors of other types
 * are never ignored.
 */
public class BadRecordException extends RuntimeException {
    private final transient Path file;
    /** The 1-based line or record number in the file, or -1 when the whole file is the record. */
    private final long record;

    /**
     * A bad record of {@code file}.
     *
     * @param record the 1-based line or record number in the file, or -1 when the whole file is the record
     * @param message the full message, naming the file and the record
     * @param file the file, or null when the source is not a file
     * @param cause the underlying exception, or null
     */
    public BadRecordException(Path file, long record, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
        this.record = record;
    }

    /**
     * A bad record without an underlying exception.
     *
     * @param file the file, or null when the source is not a file
     * @param record the 1-based line or record number, or -1 when the whole file is the record
     * @param message the full message, naming the file and the record
     */
    public BadRecordException(Path file, long record, String message) {
        this(file, record, message, null);
    }

    /**
     * The file the record came from (null when the source is not a file).
     *
     * @return the file, or null
     */
    public Path file() {
        return file;
    }

    /**
     * The 1-based line or record number, or -1 when the whole file is the record (an image).
     *
     * @return the record number, or -1
     */
    public long record() {
        return record;
    }
}
