package dev.brisk.keras;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@code .keras} file that cannot be read or does not describe a model Brisk can make: the message names the
 * file, the entry inside it ({@code config.json}, {@code model.weights.h5}, ...) and, where there is one, the path
 * within the entry (a layer, a weight).
 */
public final class KerasFileException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * An error in {@code entry} of {@code file}.
     *
     * @param file the file
     * @param entry the entry inside the archive, or null for the archive itself
     * @param message what is wrong
     * @param cause the underlying error, or null
     */
    public KerasFileException(Path file, String entry, String message, Throwable cause) {
        super(file + (entry == null ? "" : " (entry " + entry + ")") + ": " + message, cause);
    }

    /**
     * An error in {@code entry} of {@code file}.
     *
     * @param file the file
     * @param entry the entry inside the archive, or null for the archive itself
     * @param message what is wrong
     */
    public KerasFileException(Path file, String entry, String message) {
        this(file, entry, message, null);
    }
}
