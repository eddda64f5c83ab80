package dev.brisk.exec;

/** A kernel failed while a step ran; the message names the layer and op that failed. */
public class ExecutionException extends RuntimeException {
    public ExecutionException(String message, Throwable cause) {
        super(message, cause);
    }
}
