package dev.brisk.metrics;

/** Factories for the built-in metrics. */
public final class Metrics {
    private Metrics() {
    }

    /**
     * Keras' "accuracy": resolved when the model is compiled to the sparse, categorical or binary form that fits
     * the loss and the output shape.
     *
     * @return a spec that resolves to the fitting accuracy, named {@code accuracy}
     */
    public static MetricSpec accuracy() {
        return MetricSpec.AUTO_ACCURACY;
    }

    /**
     * Keras' {@code sparse_categorical_accuracy}: the argmax of the predictions against class-index targets.
     *
     * @return the spec
     */
    public static MetricSpec sparseCategoricalAccuracy() {
        return target -> new Accuracy("sparse_categorical_accuracy", Accuracy.Kind.SPARSE_CATEGORICAL, 0f);
    }

    /**
     * Keras' {@code categorical_accuracy}: the argmax of the predictions against the argmax of one-hot targets.
     *
     * @return the spec
     */
    public static MetricSpec categoricalAccuracy() {
        return target -> new Accuracy("categorical_accuracy", Accuracy.Kind.CATEGORICAL, 0f);
    }

    /**
     * Binary accuracy with Keras' default threshold 0.5 (use 0 for logits).
     *
     * @param threshold predictions above it count as 1
     * @return the spec, named {@code binary_accuracy}
     */
    public static MetricSpec binaryAccuracy(float threshold) {
        return target -> new Accuracy("binary_accuracy", Accuracy.Kind.BINARY, threshold);
    }

    /**
     * Keras' {@code binary_accuracy} with the threshold 0.5, for sigmoid outputs.
     *
     * @return the spec
     */
    public static MetricSpec binaryAccuracy() {
        return binaryAccuracy(0.5f);
    }
}
