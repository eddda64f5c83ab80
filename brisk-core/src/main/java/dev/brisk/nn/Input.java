package dev.brisk.nn;

import dev.brisk.tensor.Shape;

/** Keras' {@code keras.Input}: a symbolic tensor to start a functional model from. */
public final class Input {
    private Input() {
    }

    /** An input whose samples have shape {@code dims} (batch axis excluded). */
    public static SymbolicTensor of(int... dims) {
        return new InputLayer(Shape.of(dims), null).output();
    }

    /** A named input. */
    public static SymbolicTensor named(String name, int... dims) {
        return new InputLayer(Shape.of(dims), name).output();
    }
}
