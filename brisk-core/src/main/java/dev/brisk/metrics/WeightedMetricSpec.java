package dev.brisk.metrics;

/**
 * A metric that {@code fit} and {@code evaluate} update with the samples' weights (Keras' {@code weighted_metrics}),
 * made by {@link Metrics#weighted}. Its metric is logged under the inner metric's name, or, when an unweighted
 * metric of the same output already has that name, under {@code weighted_<name>}, as Keras 3 names them.
 *
 * @param inner the metric to weight
 */
public record WeightedMetricSpec(MetricSpec inner) implements MetricSpec {
    /**
     * A weighted metric spec.
     *
     * @throws IllegalArgumentException when {@code inner} is null or itself weighted
     */
    public WeightedMetricSpec {
        if (inner == null || inner instanceof WeightedMetricSpec) {
            throw new IllegalArgumentException("a weighted metric needs one unweighted metric spec, got " + inner);
        }
    }

    @Override
    public Metric create(Target target) {
        return new WeightedMetric(inner.create(target), null);
    }
}
