package dev.brisk.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A malformed or inconsistent IDX file. The message always names the file; {@link #offset()} is the byte offset
 * (in the uncompressed stream) where the problem was found, or -1 when the problem is not at one place.
 */
public class IdxFormatException extends IOException {
    private final Path file;
    private final long offset;

    /** A problem found at byte {@code offset} of {@code file}; {@code detail} is appended after the file name. */
    public IdxFormatException(Path file, long offset, String detail) {
        super(file + ": " + detail);
        this.file = file;
        this.offset = offset;
    }

    /** A problem that concerns {@code file} as a whole (for example, a count that disagrees with another file). */
    public IdxFormatException(Path file, String message) {
        super(message);
        this.file = file;
        this.offset = -1;
    }

    /** The file the problem was found in. */
    public Path file() {
        return file;
    }

    /** Byte offset in the uncompressed stream, or -1 when not applicable. */
    public long offset() {
        return offset;
    }
}
