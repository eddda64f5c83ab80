package dev.brisk.metrics;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;

/**
 * The weight of each row of a batch's predictions (a row of the last axis: a sample, or a step of a sequence
 * output) for Keras' {@code weighted_metrics}: its sample's weight times its step's mask value, as Keras 3 folds a
 * mask into the sample weights ({@code reduce_to_samplewise_values}). Every element of a row shares its weight.
 */
final class RowWeights {
    /** How a metric adds one batch with its rows' weights. */
    @FunctionalInterface
    interface WeightedAdd {
        /**
         * Adds one batch.
         *
         * @param yTrue the batch's targets
         * @param yPred the batch's predictions
         * @param weights the weight of each row of {@code yPred}
         */
        void add(Tensor yTrue, Tensor yPred, RowWeights weights);
    }

    private final float[] weights;
    private final int width;

    private RowWeights(float[] weights, int width) {
        this.weights = weights;
        this.width = width;
    }

    /**
     * The rows' weights of a batch.
     *
     * @param metric the metric, named in errors
     * @param yPred the batch's predictions, batch first; a row is one of its last axis (an element for rank 1)
     * @param mask 1 for real steps and 0 for padding, or null
     * @param sampleWeights one weight per sample, shape {@code (batch)}
     * @throws IllegalArgumentException naming the metric and the shapes when the weights or mask do not fit
     */
    static RowWeights of(String metric, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        int rank = yPred.shape().rank();
        int width = rank <= 1 ? 1 : yPred.shape().dim(-1);
        int rows = width == 0 ? 0 : yPred.size() / width;
        int batch = sampleWeights.size();
        if (rank == 0 || batch != yPred.shape().dim(0) || rows % Math.max(1, batch) != 0) {
            throw new IllegalArgumentException(metric + ": " + batch + " sample weights do not fit the predictions "
                    + yPred.shape());
        }
        if (mask != null && (mask.size() == 0 || rows % mask.size() != 0)) {
            throw new IllegalArgumentException(metric + ": the mask " + mask.shape() + " does not fit the"
                    + " predictions " + yPred.shape());
        }
        int perSample = rows / Math.max(1, batch);
        int perStep = mask == null ? 1 : rows / mask.size();
        float[] w = new float[rows];
        for (int r = 0; r < rows; r++) {
            w[r] = sampleWeights.get(r / perSample) * (mask == null ? 1f : mask.get(r / perStep));
        }
        return new RowWeights(w, width);
    }

    /**
     * The body of {@link Metric#update(Tensor, Tensor, Tensor, Tensor)} for a metric that counts weighted rows:
     * without weights the metric's masked update (so an unweighted batch counts exactly as in plain
     * {@code metrics}), else {@code weighted} with the rows' weights (the mask folded in, as Keras folds it).
     *
     * @param metric the metric updated, named in errors
     * @param yTrue the batch's targets
     * @param yPred the batch's predictions
     * @param mask 1 for real steps and 0 for padding, or null
     * @param sampleWeights one weight per sample, shape {@code (batch)}, or null
     * @param weighted how the metric adds a batch with weights
     * @throws IllegalArgumentException naming the metric and the shapes when the weights or mask do not fit
     */
    static void update(Metric metric, Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights,
            WeightedAdd weighted) {
        if (sampleWeights == null) {
            metric.update(yTrue, yPred, mask);
        } else {
            weighted.add(yTrue, yPred, of(metric.name(), yPred, mask, sampleWeights));
        }
    }

    /**
     * As {@link #update}, for a metric that reads its batch as a matrix of rows (one class score a column): with
     * weights, a sequence output's steps become its rows, as the weights are given one a row. The predictions are
     * reshaped to {@code (steps, width)}; the targets to {@code (steps)} when they hold one class index a step, else
     * as the predictions.
     *
     * @param metric the metric updated, named in errors
     * @param yTrue the batch's targets
     * @param yPred the batch's predictions
     * @param mask 1 for real steps and 0 for padding, or null
     * @param sampleWeights one weight per sample, shape {@code (batch)}, or null
     * @param weighted how the metric adds a batch of rows with weights
     * @throws IllegalArgumentException naming the metric and the shapes when the weights or mask do not fit
     */
    static void updateByRows(Metric metric, Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights,
            WeightedAdd weighted) {
        update(metric, yTrue, yPred, mask, sampleWeights, (t, p, w) -> {
            if (p.shape().rank() > 2) {
                int width = p.shape().dim(-1);
                int steps = p.size() / width;
                weighted.add(t.reshape(t.size() == steps ? Shape.of(steps) : Shape.of(steps, width)),
                        p.reshape(Shape.of(steps, width)), w);
            } else {
                weighted.add(t, p, w);
            }
        });
    }

    /** The weight of row {@code r}. */
    double row(int r) {
        return weights[r];
    }

    /** The weight of the element at flat index {@code i} of the predictions: its row's. */
    double element(int i) {
        return weights[i / width];
    }
}
