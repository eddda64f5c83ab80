package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * The fraction of correct predictions, in one of Keras' three forms: sparse categorical (class index targets,
 * argmax of predictions), categorical (one-hot targets) or binary (threshold on predictions).
 */
public final class Accuracy implements Metric {
    /** How targets and predictions are compared. */
    public enum Kind {
        /** Targets are class indexes; a prediction is correct when its argmax is the target. */
        SPARSE_CATEGORICAL,
        /** Targets are one-hot; a prediction is correct when its argmax is the target's argmax. */
        CATEGORICAL,
        /** Targets are 0 or 1; a prediction is correct when it is above the threshold exactly when the target is 1. */
        BINARY
    }

    private final String name;
    private final Kind kind;
    private final float threshold;
    private double correct;
    private double total;

    /**
     * An accuracy metric of the given form.
     *
     * @param name the name in logs, e.g. {@code accuracy} or {@code binary_accuracy}
     * @param kind how targets and predictions are compared
     * @param threshold for {@link Kind#BINARY}, the prediction above which a sample counts as 1; ignored otherwise
     */
    public Accuracy(String name, Kind kind, float threshold) {
        this.name = name;
        this.kind = kind;
        this.threshold = threshold;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * The form of accuracy this metric computes.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        update(yTrue, yPred, null);
    }

    /**
     * Adds one batch, counting only the steps the mask keeps (without copying them out). The categorical forms
     * compare one row of the predictions' last axis at a time (a {@code [batch, steps, classes]} output has one row
     * a step, as Keras compares along the last axis); the binary form compares every element, a step's elements
     * sharing its mask value.
     *
     * @param yTrue the batch's targets
     * @param yPred the batch's predictions
     * @param mask 1 for real steps and 0 for padding, or null to count every row
     */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask) {
        count(yTrue, yPred, mask, null);
    }

    /** Adds one batch, each row counting its weight: its sample's weight times its step's mask value. */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        RowWeights.update(this, yTrue, yPred, mask, sampleWeights, (t, p, w) -> count(t, p, null, w));
    }

    private void count(Tensor yTrue, Tensor yPred, Tensor mask, RowWeights weights) {
        int n = yPred.size();
        int cols = kind == Kind.BINARY || yPred.shape().rank() < 2 ? 1 : yPred.shape().dim(-1);
        int rows = n / cols;
        // Elements (binary) or rows (categorical) per mask element.
        int perStep = 1;
        if (mask != null) {
            if (mask.size() == 0 || rows % mask.size() != 0) {
                throw new IllegalArgumentException(name + ": the mask " + mask.shape()
                        + " does not fit the predictions " + yPred.shape());
            }
            perStep = rows / mask.size();
        }
        for (int r = 0; r < rows; r++) {
            if (mask != null && mask.get(r / perStep) == 0) {
                continue;
            }
            boolean hit = switch (kind) {
                case SPARSE_CATEGORICAL -> argmax(yPred, r * cols, cols) == (int) Values.at(yTrue, r);
                case CATEGORICAL -> argmax(yPred, r * cols, cols) == argmax(yTrue, r * cols, cols);
                case BINARY -> (yPred.get(r) > threshold) == (yTrue.get(r) > 0.5f);
            };
            // Counting in double stays exact for the unweighted counts (whole numbers below 2^53).
            double w = weights == null ? 1 : kind == Kind.BINARY ? weights.element(r) : weights.row(r);
            if (hit) {
                correct += w;
            }
            total += w;
        }
    }

    private static int argmax(Tensor t, int from, int n) {
        int best = 0;
        float max = t.get(from);
        for (int i = 1; i < n; i++) {
            float v = t.get(from + i);
            if (v > max) {
                max = v;
                best = i;
            }
        }
        return best;
    }

    @Override
    public double result() {
        return total == 0 ? 0 : correct / total;
    }

    @Override
    public void reset() {
        correct = 0;
        total = 0;
    }
}
