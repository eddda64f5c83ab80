package dev.brisk.data;

import java.nio.file.Path;

/**
 * A malformed or inconsistent IDX file. The message always names the file; {@link #offset()} is the byte offset
 * (in the uncompressed stream) where the problem was found, or -1 when the problem is not at one place.
 */
public class IdxFormatException extends DataFormatException {

    /**
     * A problem found at byte {@code offset} of {@code file}; {@code detail} is appended after the file name.
     *
     * @param file the file
     * @param offset the byte offset of the problem
     * @param detail what is wrong there
     */
    public IdxFormatException(Path file, long offset, String detail) {
        super(file, offset, detail);
    }

    /**
     * A problem that concerns {@code file} as a whole (for example, a count that disagrees with another file).
     *
     * @param file the file
     * @param message the full message, naming the file
     */
    public IdxFormatException(Path file, String message) {
        super(file, message);
    }
}
