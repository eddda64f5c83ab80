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
    private long correct;
    private long total;

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
        int rows = yPred.shape().dim(0);
        switch (kind) {
            case SPARSE_CATEGORICAL -> {
                int cols = yPred.size() / rows;
                for (int r = 0; r < rows; r++) {
                    if (argmax(yPred, r * cols, cols) == (int) yTrue.get(r)) {
                        correct++;
                    }
                }
                total += rows;
            }
            case CATEGORICAL -> {
                int cols = yPred.size() / rows;
                for (int r = 0; r < rows; r++) {
                    if (argmax(yPred, r * cols, cols) == argmax(yTrue, r * cols, cols)) {
                        correct++;
                    }
                }
                total += rows;
            }
            case BINARY -> {
                int n = yPred.size();
                for (int i = 0; i < n; i++) {
                    boolean predicted = yPred.get(i) > threshold;
                    boolean actual = yTrue.get(i) > 0.5f;
                    if (predicted == actual) {
                        correct++;
                    }
                }
                total += n;
            }
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
        return total == 0 ? 0 : (double) correct / total;
    }

    @Override
    public void reset() {
        correct = 0;
        total = 0;
    }
}
