package dev.brisk.nn;

import dev.brisk.tensor.Tensor;

/** One step's data: a tensor per model input and per model output (targets), with {@code size} samples each. */
record StepBatch(Tensor[] x, Tensor[] y, int size) {
}
