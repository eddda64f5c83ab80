package dev.brisk.nn;

import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * A placeholder in the functional API (Keras' KerasTensor): the output of a layer applied to other symbolic
 * tensors, with its per-sample shape (batch axis left out).
 */
public final class SymbolicTensor {
    private final Layer layer;
    private final List<SymbolicTensor> inputs;
    private final Shape shape;

    SymbolicTensor(Layer layer, List<SymbolicTensor> inputs, Shape shape) {
        this.layer = layer;
        this.inputs = List.copyOf(inputs);
        this.shape = shape;
    }

    /**
     * The layer that produces this tensor.
     *
     * @return the producing layer
     */
    public Layer layer() {
        return layer;
    }

    /**
     * The tensors the producing layer was called on.
     *
     * @return the producing layer's inputs; empty for an input
     */
    public List<SymbolicTensor> inputs() {
        return inputs;
    }

    /**
     * The shape of one sample.
     *
     * @return the per-sample shape, batch axis excluded
     */
    public Shape shape() {
        return shape;
    }

    @Override
    public String toString() {
        return "SymbolicTensor(" + Layer.withBatch(shape) + ", from '" + layer.name() + "')";
    }
}
