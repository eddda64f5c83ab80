package dev.brisk.nn;

import dev.brisk.tensor.DType;
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

    /**
     * An input of element type {@code dtype} (Keras' {@code Input(shape, dtype="int32")} for token ids).
     *
     * @param dtype the element type of the data, {@link DType#INT32} for token ids
     * @param dims the per-sample dimensions
     * @return the input tensor to apply layers to
     */
    public static SymbolicTensor of(DType dtype, int... dims) {
        return new InputLayer(Shape.of(dims), dtype, null).output();
    }
}
