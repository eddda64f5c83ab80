package dev.brisk.distribute;

import java.io.IOException;

/** A ring operation failed: a peer left, sent something unexpected, refused the handshake or timed out. */
public class RingException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * An error with a message naming the rank and the peer.
     *
     * @param message what happened
     */
    public RingException(String message) {
        super(message);
    }

    /**
     * An error caused by {@code cause}.
     *
     * @param message what happened
     * @param cause the underlying error
     */
    public RingException(String message, Throwable cause) {
        super(message, cause);
    }
}
