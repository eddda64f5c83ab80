package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * A streaming metric computed on the host from each batch's targets and predictions (as Keras metrics are,
 * outside the gradient graph).
 */
public interface Metric {
    /**
     * The name in logs and history ("accuracy").
     *
     * @return the metric's name; validation figures get a {@code val_} prefix
     */
    String name();

    /**
     * Adds one batch: targets and predictions with the batch as the first axis.
     *
     * @param yTrue the batch's targets
     * @param yPred the batch's predictions
     */
    void update(Tensor yTrue, Tensor yPred);

    /**
     * The value over everything added since the last reset.
     *
     * @return the metric's value, e.g. a fraction from 0 to 1 for accuracy
     */
    double result();

    /** Forgets everything added, as at the start of each epoch. */
    void reset();
}
