package dev.brisk.graph;

/** An op was applied to inputs of the wrong shape; the message names the layer, the expected and the actual shape. */
public class ShapeException extends IllegalArgumentException {
    /**
     * A shape error with its message and the exception it explains.
     *
     * @param message the message, naming the layer and both shapes
     * @param cause the underlying exception
     */
    public ShapeException(String message, Throwable cause) {
        super(message, cause);
    }
}
