package dev.brisk.keras;

/**
 * A configuration Brisk cannot make a model from (an unknown class, an option Brisk does not have, a value of the
 * wrong type); the loader turns it into a {@link KerasFileException} naming the file and entry.
 */
final class ConfigError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConfigError(String message) {
        super(message);
    }

    ConfigError(String message, Throwable cause) {
        super(message, cause);
    }
}
