package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * True and false positives and negatives of thresholded predictions against 0/1 targets, accumulated over batches at
 * one or more thresholds, as Keras' confusion-matrix metrics count them: a target is positive when it is not 0, a
 * prediction is positive when it is above the threshold; with {@code classId} only that column of the last axis
 * counts; with {@code topK} a prediction outside its row's {@code k} largest counts as negative.
 */
final class ConfusionCounts {
    final float[] thresholds;
    final double[] tp;
    final double[] fp;
    final double[] tn;
    final double[] fn;
    private final int classId;
    private final int topK;

    /**
     * Counts at {@code thresholds}.
     *
     * @param classId the column of the last axis to count, or -1 for every element
     * @param topK how many of each row's largest predictions may count as positive, or 0 for no limit
     */
    ConfusionCounts(float[] thresholds, int classId, int topK) {
        this.thresholds = thresholds.clone();
        this.classId = classId;
        this.topK = topK;
        int n = thresholds.length;
        tp = new double[n];
        fp = new double[n];
        tn = new double[n];
        fn = new double[n];
    }

    void update(String metric, Tensor yTrue, Tensor yPred) {
        update(metric, yTrue, yPred, null);
    }

    /** Counts one batch, each element adding its row's weight (null: 1) to its cell. */
    void update(String metric, Tensor yTrue, Tensor yPred, RowWeights weights) {
        Values.requireSameSize(metric, yTrue, yPred);
        int size = yPred.size();
        int cols = yPred.shape().rank() == 0 ? 1 : yPred.shape().dim(-1);
        if (classId >= cols) {
            throw new IllegalArgumentException(metric + ": class_id " + classId + " is outside the last axis of "
                    + yPred.shape());
        }
        for (int i = 0; i < size; i++) {
            int col = i % cols;
            if (classId >= 0 && col != classId) {
                continue;
            }
            boolean actual = Values.at(yTrue, i) != 0;
            float p = yPred.get(i);
            boolean eligible = topK <= 0 || inTopK(yPred, i - col, cols, col);
            double w = weights == null ? 1 : weights.element(i);
            for (int t = 0; t < thresholds.length; t++) {
                boolean predicted = eligible && p > thresholds[t];
                if (predicted) {
                    if (actual) {
                        tp[t] += w;
                    } else {
                        fp[t] += w;
                    }
                } else if (actual) {
                    fn[t] += w;
                } else {
                    tn[t] += w;
                }
            }
        }
    }

    /** Whether column {@code col} of the row at {@code rowStart} is among the row's {@code topK} largest. */
    private boolean inTopK(Tensor pred, int rowStart, int cols, int col) {
        float v = pred.get(rowStart + col);
        int larger = 0;
        for (int c = 0; c < cols; c++) {
            // Ties go to the lower index, as a stable top-k does, so that exactly k columns are eligible.
            float u = pred.get(rowStart + c);
            if (u > v || (u == v && c < col)) {
                larger++;
            }
        }
        return larger < topK;
    }

    void reset() {
        java.util.Arrays.fill(tp, 0);
        java.util.Arrays.fill(fp, 0);
        java.util.Arrays.fill(tn, 0);
        java.util.Arrays.fill(fn, 0);
    }

    /** {@code a / b}, or 0 where {@code b} is 0 (Keras' divide_no_nan). */
    static double divideNoNan(double a, double b) {
        return b == 0 ? 0 : a / b;
    }
}
