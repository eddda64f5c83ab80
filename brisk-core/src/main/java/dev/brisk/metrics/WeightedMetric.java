package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * A metric updated with the samples' weights (Keras' {@code weighted_metrics}): the training loop hands it each
 * batch's weights through {@link #update(Tensor, Tensor, Tensor, Tensor)}, which it passes on to its inner metric;
 * without weights it counts every sample once, as Keras does when {@code fit} has no {@code sample_weight}.
 *
 * @param inner the metric that counts
 * @param logName the name in logs, or null for the inner metric's
 */
public record WeightedMetric(Metric inner, String logName) implements Metric {
    /**
     * This metric logged as {@code weighted_<name>}, for an output whose unweighted metrics already use the name.
     *
     * @return the same metric under the prefixed name
     */
    public WeightedMetric prefixed() {
        return new WeightedMetric(inner, "weighted_" + inner.name());
    }

    @Override
    public String name() {
        return logName != null ? logName : inner.name();
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        inner.update(yTrue, yPred);
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask) {
        inner.update(yTrue, yPred, mask);
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        inner.update(yTrue, yPred, mask, sampleWeights);
    }

    @Override
    public double result() {
        return inner.result();
    }

    @Override
    public void reset() {
        inner.reset();
    }
}
