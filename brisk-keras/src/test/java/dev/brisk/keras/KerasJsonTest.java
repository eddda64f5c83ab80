package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model descriptions without weights ({@link KerasJson}, Keras' {@code model_from_json}) and the per-output compile
 * settings ({@code loss_weights}, a metric list per output) kept by {@code .keras} files.
 */
class KerasJsonTest {
    @Test
    void lossWeightsAndPerOutputMetricsSurviveAFile(@TempDir Path dir) throws IOException {
        RandomSeed.set(3);
        SymbolicTensor in = Input.of(4);
        SymbolicTensor h = Layers.dense(6, Activation.TANH).apply(in);
        Model m = Model.of(List.of(in), List.of(Layers.dense(3).apply(h), Layers.dense(1).apply(h)));
        m.compile(Optimizers.adam(1e-3f), List.of(Losses.sparseCategoricalCrossentropy(true),
                Losses.meanSquaredError()), List.of(0.25f, 3f), List.of(List.<MetricSpec>of(Metrics.accuracy()),
                List.<MetricSpec>of()));
        Path file = dir.resolve("m.keras");
        KerasModels.save(m, file);
        Model again = KerasModels.load(file);
        assertArrayEquals(new float[] {0.25f, 3f}, again.compiledLossWeights());
        assertEquals(List.of(1, 0), again.compiledMetricsPerOutput().stream().map(List::size).toList());
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, -1, 0, 1, 2}, 2, 4);
        Tensor[] y = {Tensor.of(new float[] {0, 2}, 2), Tensor.of(new float[] {0.5f, -1}, 2, 1)};
        Map<String, Double> before = m.evaluate(new Tensor[] {x}, y, 2);
        Map<String, Double> after = again.evaluate(new Tensor[] {x}, y, 2);
        assertEquals(before, after, "the same weights, loss weights and metrics");
    }

    @Test
    void aDescriptionMakesAModelAndNamesWhatBriskLacks() throws IOException {
        Model m = KerasJson.fromJson("""
                {"class_name": "Sequential", "config": {"name": "tiny", "layers": [
                  {"class_name": "InputLayer", "config": {"batch_shape": [null, 3], "name": "in"}},
                  {"class_name": "Dense", "config": {"name": "out", "units": 2}}]}}
                """);
        assertEquals(null, m.optimizer(), "no compile_config: not compiled");
        assertEquals(2, m.outputs().get(0).shape().dim(0));
        KerasJson.compile(m, "mean_squared_error", "SGD", 0.1f, List.of());
        assertEquals("mean_squared_error", m.compiledLosses().get(0).name());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KerasJson.compile(m, "focal_loss", "Adam", 0.1f, List.of()));
        assertTrue(e.getMessage().contains("focal_loss"), e.getMessage());
        IllegalArgumentException layer = assertThrows(IllegalArgumentException.class, () -> KerasJson.fromJson("""
                {"class_name": "Sequential", "config": {"name": "bad", "layers": [
                  {"class_name": "InputLayer", "config": {"batch_shape": [null, 3], "name": "in"}},
                  {"class_name": "Conv3D", "config": {"name": "c"}}]}}
                """));
        assertTrue(layer.getMessage().contains("Conv3D"), layer.getMessage());
    }
}
