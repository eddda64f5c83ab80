package dev.brisk.onnx;

/**
 * A model, layer, op or attribute the ONNX exporter cannot translate faithfully. The message names the layer (its
 * name and class) and what it is about it that has no translation, so that no file is written for a model that
 * ONNX would compute differently.
 */
public final class OnnxExportException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * An export error.
     *
     * @param message what cannot be exported, naming the layer and the op or attribute
     */
    public OnnxExportException(String message) {
        super(message);
    }

    /**
     * An export error with its cause.
     *
     * @param message what cannot be exported, naming the model or layer
     * @param cause the error that stopped the export
     */
    public OnnxExportException(String message, Throwable cause) {
        super(message, cause);
    }
}
