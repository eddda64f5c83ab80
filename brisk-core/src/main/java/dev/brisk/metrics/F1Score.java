package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * Keras' {@code F1Score} (the F-beta score with beta 1) of a multi-class or multi-label classifier, counted per class
 * over batches and then averaged. Without a threshold a row's largest prediction (and any tied with it) is its
 * predicted class; with one, every prediction above it. Targets are one-hot rows, or class indexes (one per row),
 * which are read as one-hot. Brisk logs scalars, so {@link #result()} is the chosen average and
 * {@link #perClass()} gives Keras' {@code average=None} vector.
 */
public final class F1Score implements Metric {
    /** How the per-class scores are combined (Keras' {@code average}). */
    public enum Average {
        /** F1 of the counts summed over classes. */
        MICRO,
        /** The plain mean of the per-class scores. */
        MACRO,
        /** The mean of the per-class scores weighted by each class's number of true instances. */
        WEIGHTED
    }

    /** Keras' backend epsilon, added to the denominators as Keras does. */
    private static final double EPSILON = 1e-7;

    private final Average average;
    private final Float threshold;
    private final String name;
    private double[] tp;
    private double[] fp;
    private double[] fn;
    private double[] support;

    /**
     * An F1 score.
     *
     * @param average how the per-class scores are combined
     * @param threshold predictions above it are positive, or null to take each row's largest
     * @param name the name in logs, or null for {@code f1_score}
     */
    public F1Score(Average average, Float threshold, String name) {
        this.average = average;
        this.threshold = threshold;
        this.name = name == null ? "f1_score" : name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        add(yTrue, yPred, null);
    }

    /** Adds one batch, each row's counts multiplied by its sample's weight (times its step's mask value). */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        RowWeights.updateByRows(this, yTrue, yPred, mask, sampleWeights, this::add);
    }

    private void add(Tensor yTrue, Tensor yPred, RowWeights weights) {
        int n = Values.rows(yPred);
        int cols = yPred.size() / n;
        boolean sparse = yTrue.size() == n && cols > 1;
        if (!sparse && yTrue.size() != yPred.size()) {
            throw new IllegalArgumentException(name + ": targets " + yTrue.shape() + " do not fit predictions "
                    + yPred.shape() + " (one-hot rows or one class index per row expected)");
        }
        if (tp == null) {
            tp = new double[cols];
            fp = new double[cols];
            fn = new double[cols];
            support = new double[cols];
        } else if (tp.length != cols) {
            throw new IllegalArgumentException(name + ": predictions " + yPred.shape() + " have " + cols
                    + " classes, earlier batches had " + tp.length);
        }
        for (int r = 0; r < n; r++) {
            int base = r * cols;
            float max = Float.NEGATIVE_INFINITY;
            for (int c = 0; c < cols; c++) {
                max = Math.max(max, yPred.get(base + c));
            }
            int label = sparse ? (int) Values.at(yTrue, r) : -1;
            if (sparse && (label < 0 || label >= cols)) {
                throw new IllegalArgumentException(name + ": class " + label + " of row " + r
                        + " is outside the " + cols + " predicted classes");
            }
            for (int c = 0; c < cols; c++) {
                float p = yPred.get(base + c);
                boolean predicted = threshold == null ? p >= max : p > threshold;
                double actual = sparse ? (c == label ? 1 : 0) : Values.at(yTrue, base + c);
                double pred = predicted ? 1 : 0;
                double w = weights == null ? 1 : weights.row(r);
                tp[c] += w * (pred * actual);
                fp[c] += w * (pred * (1 - actual));
                fn[c] += w * ((1 - pred) * actual);
                support[c] += w * actual;
            }
        }
    }

    /**
     * The F1 score of each class (Keras' {@code average=None}).
     *
     * @return one score per class; empty before the first batch
     */
    public double[] perClass() {
        if (tp == null) {
            return new double[0];
        }
        double[] f1 = new double[tp.length];
        for (int c = 0; c < f1.length; c++) {
            f1[c] = f1(tp[c], fp[c], fn[c]);
        }
        return f1;
    }

    private static double f1(double tp, double fp, double fn) {
        double precision = tp / (tp + fp + EPSILON);
        double recall = tp / (tp + fn + EPSILON);
        return 2 * (precision * recall) / (precision + recall + EPSILON);
    }

    @Override
    public double result() {
        if (tp == null) {
            return 0;
        }
        return switch (average) {
            case MICRO -> f1(sum(tp), sum(fp), sum(fn));
            case MACRO -> sum(perClass()) / tp.length;
            case WEIGHTED -> {
                double[] f1 = perClass();
                double total = sum(support);
                double weighted = 0;
                for (int c = 0; c < f1.length; c++) {
                    weighted += f1[c] * ConfusionCounts.divideNoNan(support[c], total);
                }
                yield weighted;
            }
        };
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }

    @Override
    public void reset() {
        tp = null;
        fp = null;
        fn = null;
        support = null;
    }
}
