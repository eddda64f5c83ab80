package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keras' {@code weighted_metrics} in {@code fit} and {@code evaluate}: a weighted metric counts each sample's weight
 * (with 0/1 weights: the metric of the weighted samples alone), its unweighted twin ignores them, the names follow
 * Keras 3 ({@code weighted_<name>} beside an unweighted metric of the same name), and compiled steps agree with
 * eager ones; validation arrays given with their weights are weighed alike.
 */
class WeightedMetricsFitTest {
    private static final int N = SampleWeightsTest.N;

    private static Tensor zeroOne() {
        float[] w = new float[N];
        for (int i = 0; i < N; i++) {
            w[i] = i % 3 == 0 ? 0f : 1f;
        }
        return Tensor.of(w, N);
    }

    /** The rows of {@code t} whose weight is 1. */
    private static Tensor kept(Tensor t, Tensor weights) {
        int width = t.size() / N;
        int n = 0;
        for (int i = 0; i < N; i++) {
            n += weights.get(i) == 1f ? 1 : 0;
        }
        float[] out = new float[n * width];
        int at = 0;
        for (int i = 0; i < N; i++) {
            if (weights.get(i) == 1f) {
                for (int j = 0; j < width; j++) {
                    out[at++] = t.get(i * width + j);
                }
            }
        }
        int[] dims = t.shape().dims().clone();
        dims[0] = n;
        return Tensor.of(out, dims);
    }

    private static Model compiled(boolean eager) {
        Model m = SampleWeightsTest.classifier(21);
        m.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy(),
                Metrics.weighted(Metrics.accuracy()), Metrics.weighted(Metrics.sparseTopKCategoricalAccuracy(2)));
        m.runEagerly(eager);
        return m;
    }

    @Test
    void evaluateWeighsOnlyTheWeightedMetrics() {
        Tensor[] d = SampleWeightsTest.data(N, 9);
        Tensor w = zeroOne();
        for (boolean eager : new boolean[] {false, true}) {
            Model m = compiled(eager);
            m.fit(d[0], d[1], Fit.epochs(2).batchSize(8).shuffle(false).verbose(0));
            Map<String, Double> all = m.evaluate(new Tensor[] {d[0]}, new Tensor[] {d[1]}, w, 8);
            Map<String, Double> unweighted = m.evaluate(d[0], d[1], 8);
            Map<String, Double> subset = m.evaluate(kept(d[0], w), kept(d[1], w), 8);
            assertEquals(unweighted.get("accuracy"), all.get("accuracy"), 1e-12, "the unweighted metric");
            assertEquals(subset.get("accuracy"), all.get("weighted_accuracy"), 1e-12, "the weighted metric");
            assertTrue(all.containsKey("sparse_top_k_categorical_accuracy"), all.toString());
            assertFalse(all.containsKey("weighted_sparse_top_k_categorical_accuracy"), all.toString());
            assertEquals(unweighted.get("accuracy"), unweighted.get("weighted_accuracy"), 1e-12,
                    "without weights both count every sample");
        }
    }

    @Test
    void fitLogsTheWeightedMetricsWithTheSampleWeights() {
        Tensor[] d = SampleWeightsTest.data(N, 10);
        Tensor w = zeroOne();
        History compiledRun = compiled(false).fit(d[0], d[1],
                Fit.epochs(2).batchSize(8).shuffle(false).verbose(0).sampleWeight(w));
        History eagerRun = compiled(true).fit(d[0], d[1],
                Fit.epochs(2).batchSize(8).shuffle(false).verbose(0).sampleWeight(w));
        for (String key : new String[] {"accuracy", "weighted_accuracy", "sparse_top_k_categorical_accuracy"}) {
            assertTrue(compiledRun.asMap().containsKey(key), compiledRun.asMap().keySet().toString());
            for (int e = 0; e < 2; e++) {
                assertEquals(eagerRun.get(key).get(e), compiledRun.get(key).get(e), 1e-6,
                        key + " epoch " + e);
            }
        }
    }

    @Test
    void validationArraysCarryTheirWeights() {
        Tensor[] d = SampleWeightsTest.data(N, 11);
        Tensor[] v = SampleWeightsTest.data(N, 12);
        Tensor w = zeroOne();
        for (boolean eager : new boolean[] {false, true}) {
            Model m = compiled(eager);
            History h = m.fit(d[0], d[1], Fit.epochs(2).batchSize(8).shuffle(false).verbose(0)
                    .validation(v[0], v[1], w));
            Map<String, Double> weighted = m.evaluate(new Tensor[] {v[0]}, new Tensor[] {v[1]}, w, 8);
            assertEquals(weighted.get("loss"), h.last("val_loss"), 1e-6);
            assertEquals(weighted.get("weighted_accuracy"), h.last("val_weighted_accuracy"), 1e-12);
            assertEquals(m.evaluate(kept(v[0], w), kept(v[1], w), 8).get("accuracy"),
                    h.last("val_weighted_accuracy"), 1e-12, "the weighted samples' accuracy");
            assertEquals(m.evaluate(v[0], v[1], 8).get("accuracy"), h.last("val_accuracy"), 1e-12);
            assertTrue(Math.abs(m.evaluate(v[0], v[1], 8).get("loss") - h.last("val_loss")) > 1e-4,
                    "the weights change the validation loss");
        }
    }
}
