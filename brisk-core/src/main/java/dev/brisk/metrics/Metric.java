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
     * Adds one batch of an output that carries a padding mask (Keras' {@code _keras_mask}): only the steps the mask
     * keeps count, as Keras counts them with the mask as sample weight. A step is one element of the mask: a row of
     * the predictions' last axis ({@code [batch, steps, classes]} predictions have a {@code [batch, steps]} mask)
     * and the matching target row. This default copies the kept rows out and adds them with
     * {@link #update(Tensor, Tensor)}, so every metric that reads rows independently counts them correctly;
     * {@link Accuracy} counts in place.
     *
     * @param yTrue the batch's targets
     * @param yPred the batch's predictions
     * @param mask 1 for real steps and 0 for padding, or null for an output without a mask
     * @throws IllegalArgumentException naming the metric and the shapes when the mask does not fit the batch
     */
    default void update(Tensor yTrue, Tensor yPred, Tensor mask) {
        if (mask == null) {
            update(yTrue, yPred);
            return;
        }
        MaskedRows kept = MaskedRows.of(name(), yTrue, yPred, mask);
        if (kept.count() > 0) {
            update(kept.yTrue(), kept.yPred());
        }
    }

    /**
     * Adds one batch with each sample weighted, as Keras' {@code weighted_metrics} are updated with the
     * {@code sample_weight} of {@code fit} and {@code evaluate}: a sample's weight multiplies what it adds to every
     * count and sum (a weight of 2 counts it twice, 0 not at all), times its steps' mask values when there is a
     * mask. Without weights it is {@link #update(Tensor, Tensor, Tensor)}. The built-in metrics all take weights;
     * this default refuses them, naming the metric.
     *
     * @param yTrue the batch's targets
     * @param yPred the batch's predictions
     * @param mask 1 for real steps and 0 for padding, or null
     * @param sampleWeights one weight per sample, shape {@code (batch)}, or null
     * @throws IllegalArgumentException naming the metric when it takes no weights or they do not fit the batch
     */
    default void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        if (sampleWeights == null) {
            update(yTrue, yPred, mask);
            return;
        }
        throw new IllegalArgumentException("metric " + name() + " does not take sample weights, so it cannot be"
                + " one of the weighted metrics");
    }

    /**
     * The value over everything added since the last reset.
     *
     * @return the metric's value, e.g. a fraction from 0 to 1 for accuracy
     */
    double result();

    /** Forgets everything added, as at the start of each epoch. */
    void reset();
}
