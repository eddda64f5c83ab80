package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * Keras' {@code R2Score}, the coefficient of determination {@code 1 - SS_res / SS_tot} of each output column over all
 * batches seen, averaged over the columns uniformly or weighted by each column's variance, with Keras' optional
 * adjustment for {@code numRegressors}. A column whose targets do not vary scores 0 when it has residuals (Keras
 * replaces the infinite score by 0).
 */
public final class R2Score implements Metric {
    private final boolean varianceWeighted;
    private final int numRegressors;
    private final String name;
    private double[] sum;
    private double[] sumSquares;
    private double[] residual;
    private long rows;
    /** The rows' total weight: their number without sample weights. */
    private double weight;

    /**
     * An R2 score.
     *
     * @param varianceWeighted average the columns weighted by their target variance (Keras'
     *     {@code variance_weighted_average}) instead of uniformly ({@code uniform_average}, the default)
     * @param numRegressors the number of independent variables, for the adjusted R2 (0 for the plain score)
     * @param name the name in logs, or null for {@code r2_score}
     */
    public R2Score(boolean varianceWeighted, int numRegressors, String name) {
        if (numRegressors < 0) {
            throw new IllegalArgumentException("num_regressors must be >= 0, got " + numRegressors);
        }
        this.varianceWeighted = varianceWeighted;
        this.numRegressors = numRegressors;
        this.name = name == null ? "r2_score" : name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        add(yTrue, yPred, null);
    }

    /**
     * Adds one batch with Keras' sample weights: each row's target, squared target and squared residual count its
     * weight, and the mean is the weighted one; the adjustment for regressors still counts rows.
     */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        RowWeights.update(this, yTrue, yPred, mask, sampleWeights, this::add);
    }

    private void add(Tensor yTrue, Tensor yPred, RowWeights weights) {
        Values.requireSameSize(name, yTrue, yPred);
        int n = Values.rows(yPred);
        int cols = yPred.size() / n;
        if (sum == null) {
            sum = new double[cols];
            sumSquares = new double[cols];
            residual = new double[cols];
        } else if (sum.length != cols) {
            throw new IllegalArgumentException(name + ": predictions " + yPred.shape() + " have " + cols
                    + " outputs, earlier batches had " + sum.length);
        }
        for (int i = 0; i < yPred.size(); i++) {
            int c = i % cols;
            double y = Values.at(yTrue, i);
            double d = y - yPred.get(i);
            double w = weights == null ? 1 : weights.element(i);
            sum[c] += w * y;
            sumSquares[c] += w * (y * y);
            residual[c] += w * (d * d);
            if (c == 0) {
                weight += w;
            }
        }
        rows += n;
    }

    @Override
    public double result() {
        if (sum == null) {
            return 0;
        }
        int cols = sum.length;
        double score = 0;
        double weights = 0;
        for (int c = 0; c < cols; c++) {
            double totalSquares = sumSquares[c] - sum[c] * sum[c] / weight;
            double raw = 1 - residual[c] / totalSquares;
            if (Double.isInfinite(raw)) {
                raw = 0;
            }
            double w = varianceWeighted ? totalSquares : 1;
            score += raw * w;
            weights += w;
        }
        score = weights == 0 ? Double.NaN : score / weights;
        if (numRegressors > 0) {
            if (numRegressors >= rows - 1) {
                return score; // Keras warns and returns the plain score: too few samples to adjust.
            }
            score = 1 - (1 - score) * (rows - 1) / (rows - numRegressors - 1);
        }
        return score;
    }

    @Override
    public void reset() {
        sum = null;
        sumSquares = null;
        residual = null;
        rows = 0;
        weight = 0;
    }
}
