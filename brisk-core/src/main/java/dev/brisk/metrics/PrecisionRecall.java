package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * Keras' {@code Precision} ({@code tp / (tp + fp)}) or {@code Recall} ({@code tp / (tp + fn)}) of thresholded
 * predictions, over all elements or one class ({@code classId}), optionally counting only each row's {@code topK}
 * largest predictions as positive (0 when nothing was predicted or nothing is positive, as Keras' divide_no_nan).
 */
public final class PrecisionRecall implements Metric {
    private final boolean precision;
    private final String name;
    private final ConfusionCounts counts;

    /**
     * A precision or recall metric.
     *
     * @param precision true for precision, false for recall
     * @param threshold predictions above it are positive (Keras' default 0.5)
     * @param classId the column of the last axis to score, or -1 for all elements
     * @param topK count only the row's {@code topK} largest predictions as positive, or 0 for no limit
     * @param name the name in logs, or null for {@code precision} / {@code recall}
     */
    public PrecisionRecall(boolean precision, float threshold, int classId, int topK, String name) {
        if (topK < 0) {
            throw new IllegalArgumentException("top_k must be positive (or 0 for none), got " + topK);
        }
        this.precision = precision;
        this.name = name != null ? name : precision ? "precision" : "recall";
        this.counts = new ConfusionCounts(new float[] {threshold}, classId, topK);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        counts.update(name, yTrue, yPred);
    }

    /** Adds one batch, each element counting its sample's weight (times its step's mask value). */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        RowWeights.update(this, yTrue, yPred, mask, sampleWeights, (t, p, w) -> counts.update(name, t, p, w));
    }

    @Override
    public double result() {
        double tp = counts.tp[0];
        return ConfusionCounts.divideNoNan(tp, tp + (precision ? counts.fp[0] : counts.fn[0]));
    }

    @Override
    public void reset() {
        counts.reset();
    }
}
