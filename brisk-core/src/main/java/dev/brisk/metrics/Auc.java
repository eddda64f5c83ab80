package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * Keras' {@code AUC}: the area under the ROC or precision-recall curve, approximated as Keras does from confusion
 * counts at {@code numThresholds} thresholds spread evenly over [0, 1] (the first just below 0, the last just above
 * 1), so it streams over batches in constant memory. Predictions are probabilities (or logits with
 * {@code fromLogits}, passed through a sigmoid); targets are 0/1, all elements counted (Keras'
 * {@code multi_label=False}).
 */
public final class Auc implements Metric {
    /** Which curve is integrated. */
    public enum Curve {
        /** True-positive rate against false-positive rate. */
        ROC,
        /** Precision against recall. */
        PR
    }

    /** How the area between two thresholds is summed (Keras' {@code summation_method}). */
    public enum Summation {
        /** Trapezoids for ROC; Davis and Goadrich's interpolation of precision for PR (Keras' default). */
        INTERPOLATION,
        /** Rectangles of the lower of the two heights (an underestimate). */
        MINORING,
        /** Rectangles of the higher of the two heights (an overestimate). */
        MAJORING
    }

    /** Keras' backend epsilon, by which the outer thresholds lie outside [0, 1]. */
    private static final float EPSILON = 1e-7f;

    private final String name;
    private final Curve curve;
    private final Summation summation;
    private final boolean fromLogits;
    private final ConfusionCounts counts;

    /**
     * An AUC metric.
     *
     * @param numThresholds thresholds to count at, at least 2 (Keras' default 200)
     * @param curve the curve
     * @param summation how the area is summed
     * @param fromLogits whether predictions are logits (a sigmoid is applied first)
     * @param name the name in logs, or null for {@code auc}
     */
    public Auc(int numThresholds, Curve curve, Summation summation, boolean fromLogits, String name) {
        if (numThresholds < 2) {
            throw new IllegalArgumentException("AUC needs at least 2 thresholds, got " + numThresholds);
        }
        this.name = name == null ? "auc" : name;
        this.curve = curve;
        this.summation = summation;
        this.fromLogits = fromLogits;
        float[] thresholds = new float[numThresholds];
        thresholds[0] = -EPSILON;
        for (int i = 1; i < numThresholds - 1; i++) {
            thresholds[i] = (float) i / (numThresholds - 1);
        }
        thresholds[numThresholds - 1] = 1 + EPSILON;
        this.counts = new ConfusionCounts(thresholds, -1, 0);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        counts.update(name, yTrue, probabilities(yPred), null);
    }

    /** Adds one batch, each element counting its sample's weight (times its step's mask value). */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        RowWeights.update(this, yTrue, yPred, mask, sampleWeights,
                (t, p, w) -> counts.update(name, t, probabilities(p), w));
    }

    private Tensor probabilities(Tensor yPred) {
        if (!fromLogits) {
            return yPred;
        }
        float[] s = new float[yPred.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = (float) (1 / (1 + Math.exp(-yPred.get(i))));
        }
        return Tensor.wrap(s, 0, yPred.shape());
    }

    @Override
    public double result() {
        double[] tp = counts.tp;
        double[] fp = counts.fp;
        double[] tn = counts.tn;
        double[] fn = counts.fn;
        int n = tp.length;
        if (curve == Curve.PR && summation == Summation.INTERPOLATION) {
            return interpolatedPrAuc(tp, fp, fn);
        }
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double recall = ConfusionCounts.divideNoNan(tp[i], tp[i] + fn[i]);
            if (curve == Curve.ROC) {
                x[i] = ConfusionCounts.divideNoNan(fp[i], fp[i] + tn[i]);
                y[i] = recall;
            } else {
                x[i] = recall;
                y[i] = ConfusionCounts.divideNoNan(tp[i], tp[i] + fp[i]);
            }
        }
        double area = 0;
        for (int i = 0; i < n - 1; i++) {
            double height = switch (summation) {
                case INTERPOLATION -> (y[i] + y[i + 1]) / 2;
                case MINORING -> Math.min(y[i], y[i + 1]);
                case MAJORING -> Math.max(y[i], y[i + 1]);
            };
            area += (x[i] - x[i + 1]) * height;
        }
        return area;
    }

    /**
     * The PR area with precision interpolated between thresholds as a function of the positives predicted (Davis and
     * Goadrich, 2006), term by term as Keras' {@code interpolate_pr_auc}.
     */
    private static double interpolatedPrAuc(double[] tp, double[] fp, double[] fn) {
        double area = 0;
        for (int i = 0; i < tp.length - 1; i++) {
            double dtp = tp[i] - tp[i + 1];
            double p0 = tp[i] + fp[i];
            double p1 = tp[i + 1] + fp[i + 1];
            double slope = ConfusionCounts.divideNoNan(dtp, Math.max(p0 - p1, 0));
            double intercept = tp[i + 1] - slope * p1;
            double ratio = p0 > 0 && p1 > 0 ? ConfusionCounts.divideNoNan(p0, Math.max(p1, 0)) : 1;
            area += ConfusionCounts.divideNoNan(slope * (dtp + intercept * Math.log(ratio)),
                    Math.max(tp[i + 1] + fn[i + 1], 0));
        }
        return area;
    }

    @Override
    public void reset() {
        counts.reset();
    }
}
