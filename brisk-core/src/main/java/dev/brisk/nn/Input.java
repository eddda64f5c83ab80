package dev.brisk.nn;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;

/**
 * Keras' {@code keras.Input}: a symbolic tensor to start a functional model from. An axis given as
 * {@link Shape#OPEN} is Keras' {@code None}, a size each batch gives (a sequence length):
 * {@code Input.of(DType.INT32, Shape.OPEN)} is {@code keras.Input(shape=(None,), dtype="int32")}.
 */
public final class Input {
    private Input() {
    }

    /**
     * An input whose samples have shape {@code dims} (batch axis excluded).
     *
     * @param dims the per-sample dimensions, {@link Shape#OPEN} for an axis each batch sizes
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
