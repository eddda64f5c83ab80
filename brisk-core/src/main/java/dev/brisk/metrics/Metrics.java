package dev.brisk.metrics;

/** Factories for the built-in metrics. */
public final class Metrics {
    private Metrics() {
    }

    /**
     * Keras' "accuracy": resolved when the model is compiled to the sparse, categorical or binary form that fits
     * the loss and the output shape.
     */
    public static MetricSpec accuracy() {
        return MetricSpec.AUTO_ACCURACY;
    }

    public static MetricSpec sparseCategoricalAccuracy() {
        return target -> new Accuracy("sparse_categorical_accuracy", Accuracy.Kind.SPARSE_CATEGORICAL, 0f);
    }

    public static MetricSpec categoricalAccuracy() {
        return target -> new Accuracy("categorical_accuracy", Accuracy.Kind.CATEGORICAL, 0f);
    }

    /** Binary accuracy with Keras' default threshold 0.5 (use 0 for logits). */
    public static MetricSpec binaryAccuracy(float threshold) {
        return target -> new Accuracy("binary_accuracy", Accuracy.Kind.BINARY, threshold);
    }

    public static MetricSpec binaryAccuracy() {
        return binaryAccuracy(0.5f);
    }
}
