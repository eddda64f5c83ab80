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
        return target -> new PrecisionRecall(true, threshold, classId, topK, null);
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
        return target -> new PrecisionRecall(false, threshold, classId, topK, null);
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
        return target -> new Auc(numThresholds, curve, summation, fromLogits, null);
    }

    /**
     * One cell of the confusion matrix at the threshold 0.5 (Keras' {@code TruePositives} and its siblings).
     *
     * @param cell the cell to count
     * @return the spec, named as Keras names the cell
     */
    public static MetricSpec confusionCount(ConfusionCount.Cell cell) {
        return target -> new ConfusionCount(cell, 0.5f, null);
    }

    /**
     * Keras' {@code TopKCategoricalAccuracy}: one-hot targets, the target among the {@code k} largest predictions.
     *
     * @param k how many of the largest predictions count (Keras' default 5)
     * @return the spec, named {@code top_k_categorical_accuracy}
     */
    public static MetricSpec topKCategoricalAccuracy(int k) {
        return target -> new TopKAccuracy(false, k, null);
    }

    /**
     * Keras' {@code SparseTopKCategoricalAccuracy}: class-index targets among the {@code k} largest predictions.
     *
     * @param k how many of the largest predictions count (Keras' default 5)
     * @return the spec, named {@code sparse_top_k_categorical_accuracy}
     */
    public static MetricSpec sparseTopKCategoricalAccuracy(int k) {
        return target -> new TopKAccuracy(true, k, null);
    }

    /**
     * Keras' {@code F1Score}, averaged as asked; the predicted class of a row is its largest prediction.
     *
     * @param average how the per-class scores are combined
     * @return the spec, named {@code f1_score}
     */
    public static MetricSpec f1Score(F1Score.Average average) {
        return target -> new F1Score(average, null, null);
    }

    /**
     * Keras' {@code F1Score} of multi-label predictions above {@code threshold}.
     *
     * @param average how the per-class scores are combined
     * @param threshold predictions above it are positive
     * @return the spec, named {@code f1_score}
     */
    public static MetricSpec f1Score(F1Score.Average average, float threshold) {
        return target -> new F1Score(average, threshold, null);
    }

    /**
     * A streaming regression error: mean squared, root mean squared, mean absolute, mean absolute percentage or
     * mean squared logarithmic error.
     *
     * @param kind which error
     * @return the spec, named as Keras names the metric
     */
    public static MetricSpec regressionError(RegressionError.Kind kind) {
        return target -> new RegressionError(kind, null);
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
        return target -> new R2Score(false, 0, null);
    }
}
