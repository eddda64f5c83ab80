package dev.brisk.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The metrics of Keras' {@code keras.metrics} against the values Keras' own documentation gives for the same inputs
 * (the examples of each class's docstring), and against exact computations where Keras approximates (AUC).
 */
class KerasMetricsTest {
    private static Tensor t(float[] values, int... dims) {
        return Tensor.of(values, dims);
    }

    private static double run(MetricSpec spec, Tensor yTrue, Tensor yPred) {
        Metric m = spec.create(MetricSpec.Target.BINARY);
        m.update(yTrue, yPred);
        return m.result();
    }

    @Test
    void precisionAndRecallAsKerasDocuments() {
        Tensor y = t(new float[] {0, 1, 1, 1}, 4);
        Tensor p = t(new float[] {1, 0, 1, 1}, 4);
        assertEquals(2.0 / 3, run(Metrics.precision(), y, p), 1e-7);
        assertEquals(2.0 / 3, run(Metrics.recall(), y, p), 1e-7);
        Tensor y2 = t(new float[] {0, 0, 1, 1}, 1, 4);
        Tensor ones = t(new float[] {1, 1, 1, 1}, 1, 4);
        assertEquals(0.0, run(Metrics.precision(0.5f, -1, 2), y2, ones), 0);
        assertEquals(0.5, run(Metrics.precision(0.5f, -1, 4), y2, ones), 0);
        // class_id: only the last column is scored: targets {1, 0}, predictions {0.9, 0.8} -> precision 1/2.
        Tensor yc = t(new float[] {0, 1, 1, 0}, 2, 2);
        Tensor pc = t(new float[] {0.9f, 0.9f, 0.1f, 0.8f}, 2, 2);
        assertEquals(0.5, run(Metrics.precision(0.5f, 1, 0), yc, pc), 0);
        assertEquals(1.0, run(Metrics.recall(0.5f, 1, 0), yc, pc), 0);
    }

    @Test
    void nothingPredictedGivesZeroNotNaN() {
        Tensor y = t(new float[] {1, 0}, 2);
        Tensor p = t(new float[] {0.1f, 0.2f}, 2);
        assertEquals(0.0, run(Metrics.precision(), y, p), 0);
    }

    @Test
    void confusionCountsStreamOverBatches() {
        Metric tp = Metrics.confusionCount(ConfusionCount.Cell.TRUE_POSITIVES).create(MetricSpec.Target.BINARY);
        Metric tn = Metrics.confusionCount(ConfusionCount.Cell.TRUE_NEGATIVES).create(MetricSpec.Target.BINARY);
        Metric fn = Metrics.confusionCount(ConfusionCount.Cell.FALSE_NEGATIVES).create(MetricSpec.Target.BINARY);
        for (int i = 0; i < 2; i++) {
            Tensor y = t(new float[] {0, 1, 1, 1}, 4);
            Tensor p = t(new float[] {1, 0, 1, 1}, 4);
            tp.update(y, p);
            tn.update(y, p);
            fn.update(y, p);
        }
        assertEquals(4, tp.result());
        assertEquals(0, tn.result());
        assertEquals(2, fn.result());
        assertEquals("true_positives", tp.name());
        tp.reset();
        assertEquals(0, tp.result());
    }

    @Test
    void aucWithThreeThresholdsAsKerasDocuments() {
        Metric m = new Auc(3, Auc.Curve.ROC, Auc.Summation.INTERPOLATION, false, null);
        m.update(t(new float[] {0, 0, 1, 1}, 4), t(new float[] {0, 0.5f, 0.3f, 0.9f}, 4));
        assertEquals(0.75, m.result(), 1e-7);
    }

    @Test
    void rocAucMatchesTheExactRankStatisticWhenThresholdsSeparateThePredictions() {
        // 100 predictions on a grid finer than none of the 199 threshold intervals holds two of: the trapezoids
        // are exact, so Keras' approximation equals the Mann-Whitney statistic.
        Random r = new Random(7);
        int n = 100;
        float[] y = new float[n];
        float[] p = new float[n];
        for (int i = 0; i < n; i++) {
            p[i] = (2 * i + 1) / 200f;
            y[i] = r.nextDouble() < p[i] ? 1 : 0;
        }
        double pairs = 0;
        double wins = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (y[i] == 1 && y[j] == 0) {
                    pairs++;
                    wins += p[i] > p[j] ? 1 : p[i] == p[j] ? 0.5 : 0;
                }
            }
        }
        Metric m = Metrics.auc().create(MetricSpec.Target.BINARY);
        m.update(t(Arrays.copyOfRange(y, 0, 50), 50), t(Arrays.copyOfRange(p, 0, 50), 50));
        m.update(t(Arrays.copyOfRange(y, 50, n), 50), t(Arrays.copyOfRange(p, 50, n), 50));
        assertEquals(wins / pairs, m.result(), 1e-6);
        Metric low = new Auc(200, Auc.Curve.ROC, Auc.Summation.MINORING, false, null);
        Metric high = new Auc(200, Auc.Curve.ROC, Auc.Summation.MAJORING, false, null);
        low.update(t(y, n), t(p, n));
        high.update(t(y, n), t(p, n));
        assertTrue(low.result() <= m.result() && m.result() <= high.result());
    }

    @Test
    void prAucIsNearAveragePrecisionAndOneWhenSeparable() {
        Random r = new Random(3);
        int n = 400;
        float[] y = new float[n];
        float[] p = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextBoolean() ? 1 : 0;
            p[i] = (float) Math.min(1, Math.max(0, 0.5 + (y[i] - 0.5) * 0.4 + r.nextGaussian() * 0.25));
        }
        // Average precision, exact: the mean over positives of the precision at their rank.
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Float.compare(p[b], p[a]));
        double hits = 0;
        double ap = 0;
        for (int k = 0; k < n; k++) {
            if (y[order[k]] == 1) {
                hits++;
                ap += hits / (k + 1);
            }
        }
        ap /= hits;
        Metric pr = Metrics.auc(1000, Auc.Curve.PR, Auc.Summation.INTERPOLATION, false)
                .create(MetricSpec.Target.BINARY);
        pr.update(t(y, n), t(p, n));
        assertEquals(ap, pr.result(), 0.01);
        Metric separable = Metrics.auc(200, Auc.Curve.PR, Auc.Summation.INTERPOLATION, false)
                .create(MetricSpec.Target.BINARY);
        separable.update(t(new float[] {0, 0, 1, 1}, 4), t(new float[] {0.1f, 0.2f, 0.8f, 0.9f}, 4));
        assertEquals(1.0, separable.result(), 1e-6);
    }

    @Test
    void aucFromLogitsAppliesTheSigmoid() {
        Metric probs = new Auc(3, Auc.Curve.ROC, Auc.Summation.INTERPOLATION, false, null);
        Metric logits = new Auc(3, Auc.Curve.ROC, Auc.Summation.INTERPOLATION, true, null);
        probs.update(t(new float[] {0, 0, 1, 1}, 4), t(new float[] {0.1f, 0.6f, 0.3f, 0.9f}, 4));
        float[] z = {0.1f, 0.6f, 0.3f, 0.9f};
        for (int i = 0; i < z.length; i++) {
            z[i] = (float) Math.log(z[i] / (1 - z[i]));
        }
        logits.update(t(new float[] {0, 0, 1, 1}, 4), t(z, 4));
        assertEquals(probs.result(), logits.result(), 1e-7);
    }

    @Test
    void topKAccuraciesAsKerasDocuments() {
        Tensor p = t(new float[] {0.1f, 0.9f, 0.8f, 0.05f, 0.95f, 0}, 2, 3);
        assertEquals(0.5, run(Metrics.topKCategoricalAccuracy(1), t(new float[] {0, 0, 1, 0, 1, 0}, 2, 3), p), 0);
        assertEquals(0.5, run(Metrics.sparseTopKCategoricalAccuracy(1), t(new float[] {2, 1}, 2, 1), p), 0);
        assertEquals(1.0, run(Metrics.sparseTopKCategoricalAccuracy(2), t(new float[] {2, 1}, 2, 1), p), 0);
        Tensor ids = Tensor.ofInts(new int[] {2, 1}, 2);
        assertEquals(0.5, run(Metrics.sparseTopKCategoricalAccuracy(1), ids, p), 0);
        assertThrows(IllegalArgumentException.class,
                () -> run(Metrics.sparseTopKCategoricalAccuracy(1), t(new float[] {3, 1}, 2), p));
    }

    @Test
    void f1ScoreAsKerasDocuments() {
        F1Score m = new F1Score(F1Score.Average.MACRO, 0.5f, null);
        m.update(t(new float[] {1, 1, 1, 1, 0, 0, 1, 1, 0}, 3, 3),
                t(new float[] {0.2f, 0.6f, 0.7f, 0.2f, 0.6f, 0.6f, 0.6f, 0.8f, 0.0f}, 3, 3));
        double[] perClass = m.perClass();
        assertArrayEquals(new double[] {0.5, 0.8, 2.0 / 3}, perClass, 1e-6);
        assertEquals((0.5 + 0.8 + 2.0 / 3) / 3, m.result(), 1e-6);
        F1Score weighted = new F1Score(F1Score.Average.WEIGHTED, 0.5f, null);
        F1Score micro = new F1Score(F1Score.Average.MICRO, 0.5f, null);
        Tensor y = t(new float[] {1, 1, 1, 1, 0, 0, 1, 1, 0}, 3, 3);
        Tensor p = t(new float[] {0.2f, 0.6f, 0.7f, 0.2f, 0.6f, 0.6f, 0.6f, 0.8f, 0.0f}, 3, 3);
        weighted.update(y, p);
        micro.update(y, p);
        // supports 3, 2, 1; micro: tp 4, fp 2, fn 2 -> precision = recall = 2/3.
        assertEquals((3 * 0.5 + 2 * 0.8 + 2.0 / 3) / 6, weighted.result(), 1e-6);
        assertEquals(2.0 / 3, micro.result(), 1e-6);
    }

    @Test
    void f1ScoreReadsClassIndexesAsOneHot() {
        Tensor p = t(new float[] {0.7f, 0.2f, 0.1f, 0.1f, 0.2f, 0.7f, 0.3f, 0.6f, 0.1f}, 3, 3);
        F1Score sparse = new F1Score(F1Score.Average.MACRO, null, null);
        F1Score oneHot = new F1Score(F1Score.Average.MACRO, null, null);
        sparse.update(t(new float[] {0, 2, 2}, 3, 1), p);
        oneHot.update(t(new float[] {1, 0, 0, 0, 0, 1, 0, 0, 1}, 3, 3), p);
        assertEquals(oneHot.result(), sparse.result(), 0);
        // class 0: tp 1; class 1: fp 1; class 2: tp 1, fn 1 -> (1 + 0 + 2/3) / 3
        assertEquals((1 + 2.0 / 3) / 3, sparse.result(), 1e-6);
    }

    @Test
    void regressionErrorsAsKerasDocuments() {
        Tensor y = t(new float[] {0, 1, 0, 0}, 2, 2);
        Tensor p = t(new float[] {1, 1, 0, 0}, 2, 2);
        assertEquals(0.25, run(Metrics.meanSquaredError(), y, p), 1e-9);
        assertEquals(0.5, run(Metrics.rootMeanSquaredError(), y, p), 1e-9);
        assertEquals(0.25, run(Metrics.meanAbsoluteError(), y, p), 1e-9);
        assertEquals(2.5e8,
                run(Metrics.regressionError(RegressionError.Kind.MEAN_ABSOLUTE_PERCENTAGE_ERROR), y, p), 1);
        assertEquals(0.12011322,
                run(Metrics.regressionError(RegressionError.Kind.MEAN_SQUARED_LOGARITHMIC_ERROR), y, p), 1e-7);
        assertThrows(IllegalArgumentException.class,
                () -> run(Metrics.meanSquaredError(), t(new float[] {1, 2, 3}, 3), p));
    }

    @Test
    void r2ScoreAsKerasDocuments() {
        Metric m = Metrics.r2Score().create(MetricSpec.Target.BINARY);
        m.update(t(new float[] {1, 4}, 2, 1), t(new float[] {2, 4}, 2, 1));
        m.update(t(new float[] {3}, 1, 1), t(new float[] {4}, 1, 1));
        assertEquals(0.57142854, m.result(), 1e-6);
        // Adjusted for one regressor over three samples: 1 - (1 - r2) * 2 / 1.
        R2Score adjusted = new R2Score(false, 1, null);
        adjusted.update(t(new float[] {1, 4, 3}, 3, 1), t(new float[] {2, 4, 4}, 3, 1));
        assertEquals(1 - (1 - 4.0 / 7) * 2, adjusted.result(), 1e-6);
        // Two columns weighted by their variance: column 1 is exact (r2 1, SS_tot 2), column 0 as above (SS_tot 14/3).
        R2Score weighted = new R2Score(true, 0, null);
        weighted.update(t(new float[] {1, 0, 4, 1, 3, 2}, 3, 2), t(new float[] {2, 0, 4, 1, 4, 2}, 3, 2));
        double ssTot0 = 14.0 / 3;
        assertEquals((ssTot0 * (4.0 / 7) + 2 * 1) / (ssTot0 + 2), weighted.result(), 1e-6);
    }
}
