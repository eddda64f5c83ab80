package dev.brisk.nn;

import dev.brisk.tensor.Shape;

/** Keras' {@code keras.Input}: a symbolic tensor to start a functional model from. */
public final class Input {
    private Input() {
    }

    /**
     * An input whose samples have shape {@code dims} (batch axis excluded).
     *
     * @param dims the per-sample dimensions
     * @return the input tensor to apply layers to
     */
    public static SymbolicTensor of(int... dims) {
        return new InputLayer(Shape.of(dims), null).output();
    }

    /**
     * A named input.
     *
     * @param name the input layer's name
     * @param dims the per-sample dimensions
     * @return the input tensor to apply layers to
     */
    public static SymbolicTensor named(String name, int... dims) {
        return new InputLayer(Shape.of(dims), name).output();
    }
}
