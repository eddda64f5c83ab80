package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * A streaming metric computed on the host from each batch's targets and predictions (as Keras metrics are,
 * outside the gradient graph).
 */
public interface Metric {
    /** The name in logs and history ("accuracy"). */
    String name();

    /** Adds one batch: targets and predictions with the batch as the first axis. */
    void update(Tensor yTrue, Tensor yPred);

    /** The value over everything added since the last reset. */
    double result();

    void reset();
}
