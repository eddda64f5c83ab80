package dev.brisk.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A malformed or unsupported data file (IDX, NPY, CSV header). The message always names the file;
 * {@link #offset()} is the byte offset where the problem was found, or -1 when it is not at one place.
 */
public class DataFormatException extends IOException {
    private final transient Path file;
    /** Byte offset of the problem in the (uncompressed) file, or -1 when not applicable. */
    private final long offset;

    /**
     * A problem found at byte {@code offset} of {@code file}; {@code detail} is appended after the file name.
     *
     * @param file the file
     * @param offset the byte offset of the problem
     * @param detail what is wrong there
     */
    public DataFormatException(Path file, long offset, String detail) {
        super(file + ": " + detail);
        this.file = file;
        this.offset = offset;
    }

    /**
     * A problem that concerns {@code file} as a whole; {@code message} must name the file.
     *
     * @param file the file
     * @param message the full message
     */
    public DataFormatException(Path file, String message) {
        super(message);
        this.file = file;
        this.offset = -1;
    }

    /**
     * The file the problem was found in.
     *
     * @return the file
     */
    public Path file() {
        return file;
    }

    /**
     * Byte offset in the (uncompressed) file, or -1 when not applicable.
     *
     * @return the offset, or -1
     */
    public long offset() {
        return offset;
    }
}
