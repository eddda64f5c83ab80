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
        return NamedMetricSpec.of("SparseCategoricalAccuracy", "sparse_categorical_accuracy",
                target -> new Accuracy("sparse_categorical_accuracy", Accuracy.Kind.SPARSE_CATEGORICAL, 0f));
    }

    /**
     * Keras' {@code categorical_accuracy}: the argmax of the predictions against the argmax of one-hot targets.
     *
     * @return the spec
     */
    public static MetricSpec categoricalAccuracy() {
        return NamedMetricSpec.of("CategoricalAccuracy", "categorical_accuracy",
                target -> new Accuracy("categorical_accuracy", Accuracy.Kind.CATEGORICAL, 0f));
    }

    /**
     * Binary accuracy with Keras' default threshold 0.5 (use 0 for logits).
     *
     * @param threshold predictions above it count as 1
     * @return the spec, named {@code binary_accuracy}
     */
    public static MetricSpec binaryAccuracy(float threshold) {
        return NamedMetricSpec.of("BinaryAccuracy", "binary_accuracy",
                target -> new Accuracy("binary_accuracy", Accuracy.Kind.BINARY, threshold), "threshold", threshold);
    }

    /**
     * Keras' {@code binary_accuracy} with the threshold 0.5, for sigmoid outputs.
     *
     * @return the spec
     */
    public static MetricSpec binaryAccuracy() {
        return binaryAccuracy(0.5f);
    }

    /**
     * Keras' {@code Precision} at the threshold 0.5 over all elements: true positives over predicted positives.
     *
     * @return the spec, named {@code precision}
     */
    public static MetricSpec precision() {
        return precision(0.5f, -1, 0);
    }

    /**
     * Keras' {@code Precision} with its options.
     *
     * @param threshold predictions above it are positive
     * @param classId the column of the last axis to score, or -1 for all elements
     * @param topK count only each row's {@code topK} largest predictions as positive, or 0 for no limit
     * @return the spec, named {@code precision}
     */
    public static MetricSpec precision(float threshold, int classId, int topK) {
        return NamedMetricSpec.of("Precision", "precision",
                target -> new PrecisionRecall(true, threshold, classId, topK, null),
                "thresholds", threshold, "top_k", topK == 0 ? null : topK, "class_id", classId < 0 ? null : classId);
    }

    /**
     * Keras' {@code Recall} at the threshold 0.5 over all elements: true positives over actual positives.
     *
     * @return the spec, named {@code recall}
     */
    public static MetricSpec recall() {
        return recall(0.5f, -1, 0);
    }

    /**
     * Keras' {@code Recall} with its options.
     *
     * @param threshold predictions above it are positive
     * @param classId the column of the last axis to score, or -1 for all elements
     * @param topK count only each row's {@code topK} largest predictions as positive, or 0 for no limit
     * @return the spec, named {@code recall}
     */
    public static MetricSpec recall(float threshold, int classId, int topK) {
        return NamedMetricSpec.of("Recall", "recall",
                target -> new PrecisionRecall(false, threshold, classId, topK, null),
                "thresholds", threshold, "top_k", topK == 0 ? null : topK, "class_id", classId < 0 ? null : classId);
    }

    /**
     * Keras' {@code AUC} with its defaults: ROC curve, 200 thresholds, interpolated, probabilities.
     *
     * @return the spec, named {@code auc}
     */
    public static MetricSpec auc() {
        return auc(200, Auc.Curve.ROC, Auc.Summation.INTERPOLATION, false);
    }

    /**
     * Keras' {@code AUC} with its options.
     *
     * @param numThresholds thresholds to count at (at least 2)
     * @param curve ROC or PR
     * @param summation how the area is summed
     * @param fromLogits whether the predictions are logits
     * @return the spec, named {@code auc}
     */
    public static MetricSpec auc(int numThresholds, Auc.Curve curve, Auc.Summation summation, boolean fromLogits) {
        return NamedMetricSpec.of("AUC", "auc", target -> new Auc(numThresholds, curve, summation, fromLogits, null),
                "num_thresholds", numThresholds, "curve", curve.name(), "summation_method",
                summation.name().toLowerCase(java.util.Locale.ROOT), "multi_label", false, "num_labels", null,
                "label_weights", null, "from_logits", fromLogits);
    }

    /**
     * One cell of the confusion matrix at the threshold 0.5 (Keras' {@code TruePositives} and its siblings).
     *
     * @param cell the cell to count
     * @return the spec, named as Keras names the cell
     */
    public static MetricSpec confusionCount(ConfusionCount.Cell cell) {
        return NamedMetricSpec.of(pascal(cell.kerasName()), cell.kerasName(),
                target -> new ConfusionCount(cell, 0.5f, null), "thresholds", 0.5f);
    }

    /**
     * Keras' {@code TopKCategoricalAccuracy}: one-hot targets, the target among the {@code k} largest predictions.
     *
     * @param k how many of the largest predictions count (Keras' default 5)
     * @return the spec, named {@code top_k_categorical_accuracy}
     */
    public static MetricSpec topKCategoricalAccuracy(int k) {
        return NamedMetricSpec.of("TopKCategoricalAccuracy", "top_k_categorical_accuracy",
                target -> new TopKAccuracy(false, k, null), "k", k);
    }

    /**
     * Keras' {@code SparseTopKCategoricalAccuracy}: class-index targets among the {@code k} largest predictions.
     *
     * @param k how many of the largest predictions count (Keras' default 5)
     * @return the spec, named {@code sparse_top_k_categorical_accuracy}
     */
    public static MetricSpec sparseTopKCategoricalAccuracy(int k) {
        return NamedMetricSpec.of("SparseTopKCategoricalAccuracy", "sparse_top_k_categorical_accuracy",
                target -> new TopKAccuracy(true, k, null), "k", k);
    }

    /**
     * Keras' {@code F1Score}, averaged as asked; the predicted class of a row is its largest prediction.
     *
     * @param average how the per-class scores are combined
     * @return the spec, named {@code f1_score}
     */
    public static MetricSpec f1Score(F1Score.Average average) {
        return NamedMetricSpec.of("F1Score", "f1_score", target -> new F1Score(average, null, null), "average",
                average.name().toLowerCase(java.util.Locale.ROOT), "threshold", null);
    }

    /**
     * Keras' {@code F1Score} of multi-label predictions above {@code threshold}.
     *
     * @param average how the per-class scores are combined
     * @param threshold predictions above it are positive
     * @return the spec, named {@code f1_score}
     */
    public static MetricSpec f1Score(F1Score.Average average, float threshold) {
        return NamedMetricSpec.of("F1Score", "f1_score", target -> new F1Score(average, threshold, null), "average",
                average.name().toLowerCase(java.util.Locale.ROOT), "threshold", threshold);
    }

    /**
     * A streaming regression error: mean squared, root mean squared, mean absolute, mean absolute percentage or
     * mean squared logarithmic error.
     *
     * @param kind which error
     * @return the spec, named as Keras names the metric
     */
    public static MetricSpec regressionError(RegressionError.Kind kind) {
        return NamedMetricSpec.of(pascal(kind.kerasName()), kind.kerasName(),
                target -> new RegressionError(kind, null));
    }

    /**
     * Keras' {@code mean_squared_error} metric.
     *
     * @return the spec
     */
    public static MetricSpec meanSquaredError() {
        return regressionError(RegressionError.Kind.MEAN_SQUARED_ERROR);
    }

    /**
     * Keras' {@code RootMeanSquaredError} metric.
     *
     * @return the spec
     */
    public static MetricSpec rootMeanSquaredError() {
        return regressionError(RegressionError.Kind.ROOT_MEAN_SQUARED_ERROR);
    }

    /**
     * Keras' {@code mean_absolute_error} metric.
     *
     * @return the spec
     */
    public static MetricSpec meanAbsoluteError() {
        return regressionError(RegressionError.Kind.MEAN_ABSOLUTE_ERROR);
    }

    /**
     * Keras' {@code R2Score} with its defaults: columns averaged uniformly, no adjustment.
     *
     * @return the spec, named {@code r2_score}
     */
    public static MetricSpec r2Score() {
        return NamedMetricSpec.of("R2Score", "r2_score", target -> new R2Score(false, 0, null), "class_aggregation",
                "uniform_average", "num_regressors", 0);
    }

    /**
     * {@code metric} updated with the samples' weights, as Keras' {@code compile(weighted_metrics=[...])}: with
     * {@code Fit.sampleWeight}, {@code classWeight}, a pipeline's weight column or {@code evaluate}'s weights, each
     * sample counts its weight (0 not at all); the unweighted metrics ignore them. Logged under the metric's name,
     * or {@code weighted_<name>} when the same output also has the unweighted metric. Every built-in metric takes
     * weights: the accuracies, precision, recall, AUC and the confusion counts count each sample's weight, the
     * regression errors, F1 and R2 weight each sample's terms.
     *
     * @param metric the metric to weight
     * @return the weighted spec
     */
    public static MetricSpec weighted(MetricSpec metric) {
        return new WeightedMetricSpec(metric);
    }

    /** Keras' class name from its snake-case metric name: "true_positives" to "TruePositives". */
    private static String pascal(String snake) {
        StringBuilder b = new StringBuilder();
        for (String part : snake.split("_")) {
            b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return b.toString();
    }
}
