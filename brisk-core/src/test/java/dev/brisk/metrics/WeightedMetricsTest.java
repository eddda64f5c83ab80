package dev.brisk.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every built-in metric with sample weights (Keras' {@code weighted_metrics}): a whole-number weight counts a sample
 * that many times (checked against the unweighted metric on the batch with each row repeated), a weight of 0 not
 * at all, a mask multiplies the weights, and Keras' documented examples give Keras' values.
 */
class WeightedMetricsTest {
    private static final int ROWS = 12;
    private static final int COLS = 4;
    private static final int[] WEIGHTS = {1, 0, 2, 3, 1, 0, 1, 2, 1, 1, 3, 1};

    private static Tensor uniform(long seed, double low, double high, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        Tensor t = Tensor.zeros(Shape.of(dims));
        for (int i = 0; i < t.size(); i++) {
            t.set(i, (float) (low + (high - low) * r.nextDouble()));
        }
        return t;
    }

    /** {@code t} with row {@code r} repeated {@code WEIGHTS[r]} times. */
    private static Tensor repeated(Tensor t) {
        int width = t.size() / ROWS;
        int total = 0;
        for (int w : WEIGHTS) {
            total += w;
        }
        float[] out = new float[total * width];
        int at = 0;
        for (int r = 0; r < ROWS; r++) {
            for (int k = 0; k < WEIGHTS[r]; k++) {
                for (int j = 0; j < width; j++) {
                    out[at++] = t.get(r * width + j);
                }
            }
        }
        int[] dims = t.shape().dims().clone();
        dims[0] = total;
        return Tensor.of(out, dims);
    }

    private static Tensor weights() {
        float[] w = new float[ROWS];
        for (int i = 0; i < ROWS; i++) {
            w[i] = WEIGHTS[i];
        }
        return Tensor.of(w, ROWS);
    }

    /** Two batches weighted, against the same two batches with their rows repeated, unweighted. */
    private static void assertWeightIsRepetition(String what, Supplier<Metric> make, Tensor yTrue, Tensor yPred,
                                                 Tensor yTrue2, Tensor yPred2) {
        Metric weighted = make.get();
        weighted.update(yTrue, yPred, null, weights());
        weighted.update(yTrue2, yPred2, null, weights());
        Metric repeated = make.get();
        repeated.update(repeated(yTrue), repeated(yPred));
        repeated.update(repeated(yTrue2), repeated(yPred2));
        assertEquals(repeated.result(), weighted.result(), 1e-9 * Math.max(1, Math.abs(repeated.result())), what);
        Metric unweighted = make.get();
        unweighted.update(yTrue, yPred, null, null);
        unweighted.update(yTrue2, yPred2, null, null);
        Metric plain = make.get();
        plain.update(yTrue, yPred);
        plain.update(yTrue2, yPred2);
        assertEquals(plain.result(), unweighted.result(), 0, what + " without weights");
    }

    private static Tensor labels(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[ROWS];
        for (int i = 0; i < ROWS; i++) {
            v[i] = r.nextInt(COLS);
        }
        return Tensor.of(v, ROWS);
    }

    private static Tensor oneHot(Tensor labels) {
        Tensor t = Tensor.zeros(ROWS, COLS);
        for (int i = 0; i < ROWS; i++) {
            t.set(i * COLS + (int) labels.get(i), 1);
        }
        return t;
    }

    private static Tensor bits(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Tensor t = Tensor.zeros(ROWS, COLS);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, r.nextBoolean() ? 1 : 0);
        }
        return t;
    }

    private static final MetricSpec.Target SPARSE = MetricSpec.Target.SPARSE_LABELS;

    @Test
    void aWholeNumberWeightCountsASampleThatManyTimes() {
        Tensor l1 = labels(1);
        Tensor l2 = labels(2);
        Tensor p1 = uniform(3, 0, 1, ROWS, COLS);
        Tensor p2 = uniform(4, 0, 1, ROWS, COLS);
        assertWeightIsRepetition("sparse accuracy", () -> Metrics.sparseCategoricalAccuracy().create(SPARSE),
                l1, p1, l2, p2);
        assertWeightIsRepetition("categorical accuracy",
                () -> Metrics.categoricalAccuracy().create(MetricSpec.Target.ONE_HOT), oneHot(l1), p1, oneHot(l2), p2);
        assertWeightIsRepetition("sparse top-2", () -> Metrics.sparseTopKCategoricalAccuracy(2).create(SPARSE),
                l1, p1, l2, p2);
        assertWeightIsRepetition("top-2", () -> Metrics.topKCategoricalAccuracy(2).create(SPARSE),
                oneHot(l1), p1, oneHot(l2), p2);
        assertWeightIsRepetition("f1 macro", () -> Metrics.f1Score(F1Score.Average.MACRO).create(SPARSE),
                oneHot(l1), p1, oneHot(l2), p2);
        assertWeightIsRepetition("f1 weighted 0.3", () -> Metrics.f1Score(F1Score.Average.WEIGHTED, 0.3f)
                .create(SPARSE), oneHot(l1), p1, oneHot(l2), p2);
        Tensor b1 = bits(5);
        Tensor b2 = bits(6);
        MetricSpec.Target binary = MetricSpec.Target.BINARY;
        assertWeightIsRepetition("binary accuracy", () -> Metrics.binaryAccuracy().create(binary), b1, p1, b2, p2);
        assertWeightIsRepetition("precision", () -> Metrics.precision().create(binary), b1, p1, b2, p2);
        assertWeightIsRepetition("recall top-1 class 2", () -> Metrics.recall(0.3f, 2, 1).create(binary),
                b1, p1, b2, p2);
        assertWeightIsRepetition("auc", () -> Metrics.auc().create(binary), b1, p1, b2, p2);
        assertWeightIsRepetition("auc pr", () -> Metrics.auc(50, Auc.Curve.PR, Auc.Summation.INTERPOLATION, false)
                .create(binary), b1, p1, b2, p2);
        assertWeightIsRepetition("false negatives",
                () -> Metrics.confusionCount(ConfusionCount.Cell.FALSE_NEGATIVES).create(binary), b1, p1, b2, p2);
        Tensor t1 = uniform(7, -1, 1, ROWS, COLS);
        Tensor t2 = uniform(8, -1, 1, ROWS, COLS);
        Tensor q1 = uniform(9, -1, 1, ROWS, COLS);
        Tensor q2 = uniform(10, -1, 1, ROWS, COLS);
        for (RegressionError.Kind kind : RegressionError.Kind.values()) {
            assertWeightIsRepetition(kind.kerasName(), () -> Metrics.regressionError(kind).create(binary),
                    t1, q1, t2, q2);
        }
        assertWeightIsRepetition("r2", () -> Metrics.r2Score().create(binary), t1, q1, t2, q2);
    }

    /** The examples of Keras' docstrings: {@code Accuracy} and {@code MeanSquaredError} with sample weights. */
    @Test
    void kerasDocumentedExamples() {
        Metric acc = Metrics.binaryAccuracy().create(MetricSpec.Target.BINARY);
        // keras.metrics.BinaryAccuracy: [[1], [1], [0], [0]] against [[0.98], [1], [0], [0.6]], weights [1, 0, 0, 1].
        acc.update(Tensor.of(new float[] {1, 1, 0, 0}, 4, 1), Tensor.of(new float[] {0.98f, 1, 0, 0.6f}, 4, 1),
                null, Tensor.of(new float[] {1, 0, 0, 1}, 4));
        assertEquals(0.5, acc.result(), 1e-9);
        // keras.metrics.MeanSquaredError: [[0, 1], [0, 0]] against [[1, 1], [0, 0]], weights [1, 0].
        Metric mse = Metrics.meanSquaredError().create(MetricSpec.Target.BINARY);
        mse.update(Tensor.of(new float[] {0, 1, 0, 0}, 2, 2), Tensor.of(new float[] {1, 1, 0, 0}, 2, 2), null,
                Tensor.of(new float[] {1, 0}, 2));
        assertEquals(0.5, mse.result(), 1e-9);
        // keras.metrics.SparseCategoricalAccuracy: [[2], [1]] against [[0.1, 0.6, 0.3], [0.05, 0.95, 0]],
        // weights [0.7, 0.3].
        Metric sparseAcc = Metrics.sparseCategoricalAccuracy().create(SPARSE);
        sparseAcc.update(Tensor.of(new float[] {2, 1}, 2, 1), Tensor.of(new float[] {0.1f, 0.6f, 0.3f, 0.05f, 0.95f,
            0}, 2, 3), null, Tensor.of(new float[] {0.7f, 0.3f}, 2));
        assertEquals(0.3, sparseAcc.result(), 1e-7);
    }

    @Test
    void aMaskMultipliesTheWeightsOfASequencesSteps() {
        // Two samples of three steps, classes 0..2; step 2 of sample 0 and steps 1, 2 of sample 1 are padding.
        Tensor labels = Tensor.of(new float[] {0, 1, 2, 2, 0, 0}, 2, 3);
        Tensor pred = Tensor.zeros(2, 3, 3);
        int[] predicted = {0, 2, 2, 2, 1, 1}; // hits at steps 0 and 3 (and at the padded step 2)
        for (int s = 0; s < 6; s++) {
            pred.set(s * 3 + predicted[s], 1);
        }
        Tensor mask = Tensor.of(new float[] {1, 1, 0, 1, 0, 0}, 2, 3);
        Metric acc = Metrics.sparseCategoricalAccuracy().create(SPARSE);
        acc.update(labels, pred, mask, Tensor.of(new float[] {0.5f, 2f}, 2));
        // Real steps: sample 0's steps 0 (hit) and 1 (miss) at 0.5 each, sample 1's step 0 (hit) at 2.
        assertEquals((0.5 + 2) / (0.5 + 0.5 + 2), acc.result(), 1e-9);
        Metric top = Metrics.sparseTopKCategoricalAccuracy(1).create(SPARSE);
        top.update(labels, pred, mask, Tensor.of(new float[] {0.5f, 2f}, 2));
        assertEquals((0.5 + 2) / (0.5 + 0.5 + 2), top.result(), 1e-9);
    }

    /**
     * With weights, a sequence output's steps are the rows of the metrics that read a matrix of rows (F1, top-k):
     * updating with {@code (batch, steps, classes)} predictions, sample weights and a mask gives what the flattened
     * {@code (batch steps, classes)} rows give with each step's weight (its sample's times its mask value), for class
     * index and one-hot targets alike.
     */
    @Test
    void aSequencesStepsAreRowsOfTheRowMetrics() {
        Tensor pred = uniform(7, 0, 1, 2, 3, 4);
        float[] classes = {0, 3, 2, 1, 1, 0};
        Tensor sparse = Tensor.of(classes, 2, 3);
        Tensor oneHot = Tensor.zeros(2, 3, 4);
        for (int s = 0; s < classes.length; s++) {
            oneHot.set(s * 4 + (int) classes[s], 1);
        }
        Tensor mask = Tensor.of(new float[] {1, 1, 0, 1, 0, 1}, 2, 3);
        Tensor sampleWeights = Tensor.of(new float[] {0.5f, 2f}, 2);
        Tensor stepWeights = Tensor.of(new float[] {0.5f, 0.5f, 0, 2f, 0, 2f}, 6);
        List<Supplier<Metric>> metrics = List.of(
                () -> Metrics.f1Score(F1Score.Average.MACRO).create(SPARSE),
                () -> Metrics.f1Score(F1Score.Average.WEIGHTED, 0.4f).create(SPARSE),
                () -> Metrics.sparseTopKCategoricalAccuracy(2).create(SPARSE));
        for (Supplier<Metric> make : metrics) {
            Metric steps = make.get();
            steps.update(sparse, pred, mask, sampleWeights);
            Metric rows = make.get();
            rows.update(sparse.reshape(Shape.of(6)), pred.reshape(Shape.of(6, 4)), null, stepWeights);
            assertEquals(rows.result(), steps.result(), 1e-12, steps.name() + " with class indexes");
        }
        Metric steps = Metrics.f1Score(F1Score.Average.MICRO).create(SPARSE);
        steps.update(oneHot, pred, mask, sampleWeights);
        Metric rows = Metrics.f1Score(F1Score.Average.MICRO).create(SPARSE);
        rows.update(oneHot.reshape(Shape.of(6, 4)), pred.reshape(Shape.of(6, 4)), null, stepWeights);
        assertEquals(rows.result(), steps.result(), 1e-12, "f1_score with one-hot targets");
        assertTrue(steps.result() > 0 && steps.result() < 1, "a score between the extremes: " + steps.result());
    }

    @Test
    void weightsThatDoNotFitAreRefusedNamingTheMetric() {
        Metric acc = Metrics.sparseCategoricalAccuracy().create(SPARSE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> acc.update(labels(1), uniform(2, 0, 1, ROWS, COLS), null, Tensor.of(new float[] {1, 2}, 2)));
        assertTrue(e.getMessage().contains("sparse_categorical_accuracy") && e.getMessage().contains("2 sample"),
                e.getMessage());
        Metric own = new Metric() {
            @Override
            public String name() {
                return "own";
            }

            @Override
            public void update(Tensor yTrue, Tensor yPred) {
            }

            @Override
            public double result() {
                return 0;
            }

            @Override
            public void reset() {
            }
        };
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> own.update(labels(1), uniform(2, 0, 1, ROWS, COLS), null, weights()));
        assertTrue(refused.getMessage().contains("own"), refused.getMessage());
    }
}
