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

    public Variable(String name, Tensor value, boolean trainable) {
        this.name = name;
        this.value = Tensor.hasTailPadding(value.data(), value.offset(), value.size()) ? value : value.copy();
        this.trainable = trainable;
    }

    public String name() {
        return name;
    }

    public Tensor value() {
        return value;
    }

    public Shape shape() {
        return value.shape();
    }

    /** True for weights the optimiser updates; false for e.g. moving statistics. */
    public boolean trainable() {
        return trainable;
    }

    /** Overwrites the value with {@code src} (same shape required). */
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
