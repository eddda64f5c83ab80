package dev.brisk.metrics;

/**
 * A metric as named at compile time; it makes a fresh {@link Metric} once the loss and output are known (so
 * "accuracy" can pick its form as Keras does).
 */
@FunctionalInterface
public interface MetricSpec {
    /** Keras' "accuracy", resolved by {@link #create}. */
    MetricSpec AUTO_ACCURACY = target -> switch (target) {
        case SPARSE_LABELS -> new Accuracy("accuracy", Accuracy.Kind.SPARSE_CATEGORICAL, 0f);
        case ONE_HOT -> new Accuracy("accuracy", Accuracy.Kind.CATEGORICAL, 0f);
        case BINARY -> new Accuracy("accuracy", Accuracy.Kind.BINARY, 0.5f);
    };

    /** What the model's targets look like. */
    enum Target {
        /** One class index per sample (sparse categorical losses). */
        SPARSE_LABELS,
        /** One-hot or soft class vectors shaped like the predictions (categorical losses). */
        ONE_HOT,
        /** 0/1 targets for sigmoid outputs (binary cross-entropy). */
        BINARY
    }

    /**
     * Makes a fresh metric for a model whose targets look like {@code target}.
     *
     * @param target the form of the targets, from the loss and output shape
     * @return a new metric with empty state
     */
    Metric create(Target target);
}
