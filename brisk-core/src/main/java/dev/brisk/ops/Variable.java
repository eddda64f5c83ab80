package dev.brisk.ops;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;

/**
 * A named long-lived tensor: a layer weight, an optimiser slot or a moving statistic. Every execution mode reads
 * and updates {@link #value()} in place, so eager and compiled steps share the same weights.
 */
public final class Variable {
    private final String name;
    private final Tensor value;
    private final boolean trainable;

    /**
     * A variable holding {@code value}; a tensor without tail padding is copied into padded storage.
     *
     * @param name the full name, e.g. {@code dense/kernel}
     * @param value the initial value
     * @param trainable false for weights the optimiser does not update
     */
    public Variable(String name, Tensor value, boolean trainable) {
        this.name = name;
        this.value = Tensor.hasTailPadding(value.data(), value.offset(), value.size()) ? value : value.copy();
        this.trainable = trainable;
    }

    /**
     * The variable's name, unique within a model.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The current value; updates write into this tensor in place.
     *
     * @return the value
     */
    public Tensor value() {
        return value;
    }

    /**
     * The shape of the value.
     *
     * @return the shape
     */
    public Shape shape() {
        return value.shape();
    }

    /**
     * True for weights the optimiser updates; false for e.g. moving statistics.
     *
     * @return whether the optimiser updates it
     */
    public boolean trainable() {
        return trainable;
    }

    /**
     * Overwrites the value with {@code src} (same shape required).
     *
     * @param src the new value
     */
    public void assign(Tensor src) {
        if (!src.shape().equals(value.shape())) {
            throw new IllegalArgumentException("variable '" + name + "' has shape " + value.shape()
                    + " but the new value has shape " + src.shape());
        }
        value.copyFrom(src);
    }

    @Override
    public String toString() {
        return "Variable(" + name + ", " + value.shape() + ")";
    }
}
