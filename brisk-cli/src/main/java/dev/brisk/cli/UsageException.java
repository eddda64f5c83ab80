package dev.brisk.cli;

/**
 * A bad command line: an unknown option, a value that does not parse or is out of range. {@code brisk} prints the
 * message and the command's usage on stderr and exits with code 2.
 */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
