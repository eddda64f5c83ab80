package dev.brisk.nn;

import dev.brisk.tensor.Tensor;

/**
 * One step's data: a tensor per model input and per model output (targets), with {@code size} samples each, and
 * the samples' weights in the loss ({@code (size)}, Keras' {@code sample_weight}) or null for none.
 */
record StepBatch(Tensor[] x, Tensor[] y, Tensor weights, int size) {
    StepBatch(Tensor[] x, Tensor[] y, int size) {
        this(x, y, null, size);
    }

    /** This batch with other weights. */
    StepBatch withWeights(Tensor w) {
        return new StepBatch(x, y, w, size);
    }
}
