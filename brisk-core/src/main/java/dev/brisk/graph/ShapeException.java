package dev.brisk.graph;

/** An op was applied to inputs of the wrong shape; the message names the layer, the expected and the actual shape. */
public class ShapeException extends IllegalArgumentException {
    public ShapeException(String message, Throwable cause) {
        super(message, cause);
    }
}
