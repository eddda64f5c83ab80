package dev.brisk.nn;

import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * A placeholder in the functional API (Keras' KerasTensor): the output of a layer applied to other symbolic
 * tensors, with its per-sample shape (batch axis left out). A layer of several outputs ({@link Layer#applyAll})
 * gives one tensor per output, each reading the one call of the layer (a tensor of its own, not an output).
 */
public final class SymbolicTensor {
    /** {@link #output()} of the call of a layer of several outputs. */
    static final int SEVERAL = -2;
    private static final int ONE = -1;
    private final Layer layer;
    private final List<SymbolicTensor> inputs;
    private final Shape shape;
    private final int output;

    SymbolicTensor(Layer layer, List<SymbolicTensor> inputs, Shape shape) {
        this(layer, inputs, shape, ONE);
    }

    SymbolicTensor(Layer layer, List<SymbolicTensor> inputs, Shape shape, int output) {
        this.layer = layer;
        this.inputs = List.copyOf(inputs);
        this.shape = shape;
        this.output = output;
    }

    /**
     * Which output of its layer's call this tensor is: {@code 0, 1, ..} for an output of a layer of several
     * outputs (its one input is then the call), {@link #SEVERAL} for that call itself, -1 for the one output of a
     * layer of one.
     *
     * @return the output index
     */
    int output() {
        return output;
    }

    /**
     * Which of its layer's outputs this tensor is, as Keras' {@code keras_history} counts them: {@code k} for the
     * k-th output of a layer of several, 0 otherwise.
     *
     * @return the output's index
     */
    public int outputIndex() {
        return Math.max(output, 0);
    }

    /**
     * Whether this tensor is one output of a layer of several, read from the layer's call.
     *
     * @return true for such an output
     */
    public boolean isOutputOfSeveral() {
        return output >= 0;
    }

    /**
     * Whether this tensor is the call of a layer of several outputs.
     *
     * @return true for such a call
     */
    public boolean isCallOfSeveral() {
        return output == SEVERAL;
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
        return "SymbolicTensor(" + Layer.withBatch(shape) + ", from '" + layer.name() + "'"
                + (output >= 0 ? ", output " + output : "") + ")";
    }
}
