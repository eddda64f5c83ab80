package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * Keras' {@code TopKCategoricalAccuracy} (one-hot targets) and {@code SparseTopKCategoricalAccuracy} (class-index
 * targets): the fraction of rows whose target class is among the {@code k} largest predictions (default 5). A class
 * tied with the k-th largest counts as inside, as TensorFlow's {@code in_top_k} decides.
 */
public final class TopKAccuracy implements Metric {
    private final boolean sparse;
    private final int k;
    private final String name;
    private double hits;
    private double rows;

    /**
     * A top-k accuracy.
     *
     * @param sparse true for class-index targets, false for one-hot targets
     * @param k how many of the largest predictions count, at least 1
     * @param name the name in logs, or null for Keras' name
     */
    public TopKAccuracy(boolean sparse, int k, String name) {
        if (k < 1) {
            throw new IllegalArgumentException("top-k accuracy needs k >= 1, got " + k);
        }
        this.sparse = sparse;
        this.k = k;
        this.name = name != null ? name
                : sparse ? "sparse_top_k_categorical_accuracy" : "top_k_categorical_accuracy";
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        count(yTrue, yPred, null);
    }

    /** Adds one batch, each row counting its sample's weight (times its step's mask value). */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        RowWeights.updateByRows(this, yTrue, yPred, mask, sampleWeights, this::count);
    }

    private void count(Tensor yTrue, Tensor yPred, RowWeights weights) {
        int n = Values.rows(yPred);
        int cols = yPred.size() / n;
        int targetCols = yTrue.size() / n;
        if (sparse ? targetCols != 1 : targetCols != cols) {
            throw new IllegalArgumentException(name + ": targets " + yTrue.shape() + " do not fit predictions "
                    + yPred.shape() + (sparse ? " (one class index per row expected)" : " (one-hot rows expected)"));
        }
        for (int r = 0; r < n; r++) {
            int target = sparse ? (int) Values.at(yTrue, r) : argmax(yTrue, r * cols, cols);
            if (target < 0 || target >= cols) {
                throw new IllegalArgumentException(name + ": class " + target + " of row " + r
                        + " is outside the " + cols + " predicted classes");
            }
            float v = yPred.get(r * cols + target);
            int larger = 0;
            for (int c = 0; c < cols; c++) {
                if (yPred.get(r * cols + c) > v) {
                    larger++;
                }
            }
            double w = weights == null ? 1 : weights.row(r);
            if (larger < k) {
                hits += w;
            }
            rows += w;
        }
    }

    private static int argmax(Tensor t, int from, int n) {
        int best = 0;
        double max = Values.at(t, from);
        for (int i = 1; i < n; i++) {
            double v = Values.at(t, from + i);
            if (v > max) {
                max = v;
                best = i;
            }
        }
        return best;
    }

    @Override
    public double result() {
        return rows == 0 ? 0 : hits / rows;
    }

    @Override
    public void reset() {
        hits = 0;
        rows = 0;
    }
}
