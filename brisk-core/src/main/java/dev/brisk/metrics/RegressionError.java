package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * The streaming regression metrics of Keras: {@code mean_squared_error}, {@code root_mean_squared_error},
 * {@code mean_absolute_error}, {@code mean_absolute_percentage_error} and {@code mean_squared_logarithmic_error},
 * each the mean over every element of every batch seen (the root taken of the mean for RMSE, as Keras does).
 */
public final class RegressionError implements Metric {
    /** Which error is averaged. */
    public enum Kind {
        /** Mean of {@code (y - p)^2}. */
        MEAN_SQUARED_ERROR("mean_squared_error"),
        /** Square root of the mean of {@code (y - p)^2}. */
        ROOT_MEAN_SQUARED_ERROR("root_mean_squared_error"),
        /** Mean of {@code |y - p|}. */
        MEAN_ABSOLUTE_ERROR("mean_absolute_error"),
        /** Mean of {@code 100 |y - p| / max(|y|, 1e-7)}. */
        MEAN_ABSOLUTE_PERCENTAGE_ERROR("mean_absolute_percentage_error"),
        /** Mean of {@code (log(max(p, 1e-7) + 1) - log(max(y, 1e-7) + 1))^2}. */
        MEAN_SQUARED_LOGARITHMIC_ERROR("mean_squared_logarithmic_error");

        private final String kerasName;

        Kind(String kerasName) {
            this.kerasName = kerasName;
        }

        /**
         * Keras' name of the metric.
         *
         * @return e.g. {@code mean_squared_error}
         */
        public String kerasName() {
            return kerasName;
        }
    }

    /** Keras' backend epsilon (the floor of the denominators and logarithms). */
    private static final double EPSILON = 1e-7;

    private final Kind kind;
    private final String name;
    private double total;
    private double count;

    /**
     * A regression metric.
     *
     * @param kind which error
     * @param name the name in logs, or null for Keras' name
     */
    public RegressionError(Kind kind, String name) {
        this.kind = kind;
        this.name = name == null ? kind.kerasName() : name;
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
     * Adds one batch, each element weighted by its sample's weight (times its step's mask value): Keras' weighted
     * mean of the per-sample errors, as every sample has the same number of elements.
     */
    @Override
    public void update(Tensor yTrue, Tensor yPred, Tensor mask, Tensor sampleWeights) {
        RowWeights.update(this, yTrue, yPred, mask, sampleWeights, this::add);
    }

    private void add(Tensor yTrue, Tensor yPred, RowWeights weights) {
        Values.requireSameSize(name, yTrue, yPred);
        for (int i = 0; i < yPred.size(); i++) {
            double y = Values.at(yTrue, i);
            double p = yPred.get(i);
            double w = weights == null ? 1 : weights.element(i);
            total += w * switch (kind) {
                case MEAN_SQUARED_ERROR, ROOT_MEAN_SQUARED_ERROR -> (y - p) * (y - p);
                case MEAN_ABSOLUTE_ERROR -> Math.abs(y - p);
                case MEAN_ABSOLUTE_PERCENTAGE_ERROR -> 100 * Math.abs(y - p) / Math.max(Math.abs(y), EPSILON);
                case MEAN_SQUARED_LOGARITHMIC_ERROR -> {
                    double d = Math.log(Math.max(p, EPSILON) + 1) - Math.log(Math.max(y, EPSILON) + 1);
                    yield d * d;
                }
            };
            count += w;
        }
    }

    @Override
    public double result() {
        if (count == 0) {
            return 0;
        }
        double mean = total / count;
        return kind == Kind.ROOT_MEAN_SQUARED_ERROR ? Math.sqrt(mean) : mean;
    }

    @Override
    public void reset() {
        total = 0;
        count = 0;
    }
}
