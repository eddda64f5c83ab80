package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/**
 * One cell of the binary confusion matrix, counted over all elements: Keras' {@code TruePositives},
 * {@code FalsePositives}, {@code TrueNegatives} and {@code FalseNegatives} (a target is positive when it is not 0, a
 * prediction when it is above the threshold, 0.5 by default).
 */
public final class ConfusionCount implements Metric {
    /** Which cell is counted. */
    public enum Cell {
        /** Positive target, positive prediction ({@code true_positives}). */
        TRUE_POSITIVES("true_positives"),
        /** Negative target, positive prediction ({@code false_positives}). */
        FALSE_POSITIVES("false_positives"),
        /** Negative target, negative prediction ({@code true_negatives}). */
        TRUE_NEGATIVES("true_negatives"),
        /** Positive target, negative prediction ({@code false_negatives}). */
        FALSE_NEGATIVES("false_negatives");

        private final String kerasName;

        Cell(String kerasName) {
            this.kerasName = kerasName;
        }

        /**
         * Keras' name of the metric.
         *
         * @return e.g. {@code true_positives}
         */
        public String kerasName() {
            return kerasName;
        }
    }

    private final Cell cell;
    private final String name;
    private final ConfusionCounts counts;

    /**
     * Counts {@code cell} at {@code threshold}.
     *
     * @param cell the cell to count
     * @param threshold predictions above it are positive
     * @param name the name in logs, or null for Keras' name of the cell
     */
    public ConfusionCount(Cell cell, float threshold, String name) {
        this.cell = cell;
        this.name = name == null ? cell.kerasName() : name;
        this.counts = new ConfusionCounts(new float[] {threshold}, -1, 0);
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
        return switch (cell) {
            case TRUE_POSITIVES -> counts.tp[0];
            case FALSE_POSITIVES -> counts.fp[0];
            case TRUE_NEGATIVES -> counts.tn[0];
            case FALSE_NEGATIVES -> counts.fn[0];
        };
    }

    @Override
    public void reset() {
        counts.reset();
    }
}
