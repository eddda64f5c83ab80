package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.metrics.WeightedMetricSpec;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keras' {@code weighted_metrics} in a {@code .keras} file's {@code compile_config}: written beside
 * {@code metrics} (null when there are none, as Keras writes it), read back as weighted metrics, and a loaded model
 * evaluating the same weighted figures.
 */
class WeightedMetricsConfigTest {
    @TempDir
    Path dir;

    @Test
    void weightedMetricsRoundTripAndEvaluateAlike() throws IOException {
        int n = 20;
        SplittableRandom random = new SplittableRandom(4);
        float[] x = new float[n * 3];
        float[] y = new float[n];
        float[] w = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = random.nextInt(2);
            w[i] = random.nextInt(3);
            for (int j = 0; j < 3; j++) {
                x[i * 3 + j] = (float) random.nextGaussian() + y[i];
            }
        }
        Tensor[] xs = {Tensor.of(x, n, 3)};
        Tensor[] ys = {Tensor.of(y, n, 1)};
        Tensor weights = Tensor.of(w, n);
        RandomSeed.set(2);
        Model m = Sequential.of(Layers.input(3), Layers.dense(4, Activation.TANH), Layers.dense(1, Activation.SIGMOID));
        m.compile(Optimizers.sgd(0.1f), Losses.binaryCrossentropy(), Metrics.binaryAccuracy(),
                Metrics.weighted(Metrics.binaryAccuracy()), Metrics.weighted(Metrics.auc()));
        Map<String, Object> config = CompileConfig.of(m);
        assertEquals(1, ((List<?>) config.get("metrics")).size());
        assertEquals(2, ((List<?>) config.get("weighted_metrics")).size());
        Path file = dir.resolve("weighted.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        assertInstanceOf(WeightedMetricSpec.class, loaded.compiledMetrics().get(1));
        Map<String, Double> before = m.evaluate(xs, ys, weights, 8);
        Map<String, Double> after = loaded.evaluate(xs, ys, weights, 8);
        assertEquals(before.keySet(), after.keySet());
        for (String key : before.keySet()) {
            assertEquals(before.get(key), after.get(key), 1e-9, key);
        }
        assertEquals(List.of("auc", "binary_accuracy", "loss", "weighted_binary_accuracy"),
                before.keySet().stream().sorted().toList());

        Model plain = Sequential.of(Layers.input(3), Layers.dense(1));
        plain.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError(), Metrics.meanAbsoluteError());
        assertNull(CompileConfig.of(plain).get("weighted_metrics"));
    }
}
