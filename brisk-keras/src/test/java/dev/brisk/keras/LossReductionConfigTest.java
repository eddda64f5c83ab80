package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.io.KerasObject;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.losses.Reduction;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code reduction} entry of a loss in a {@code .keras} file's {@code compile_config}: written as Keras'
 * {@code get_config()} writes it, read back for every loss and reduction (JSON null being Keras' {@code None}), an
 * unknown value refused naming the loss and the value, and a saved model evaluating to the same reduced loss.
 */
class LossReductionConfigTest {
    @TempDir
    Path dir;

    @Test
    void everyLossRoundTripsWithEveryReduction() {
        Loss[] losses = {Losses.sparseCategoricalCrossentropy(true), Losses.categoricalCrossentropy(false, 0.1f),
            Losses.binaryCrossentropy(true), Losses.meanSquaredError(), Losses.huber(0.5f), Losses.cosineSimilarity(),
            Losses.meanSquaredLogarithmicError()};
        for (Loss base : losses) {
            for (Reduction r : Reduction.values()) {
                Loss loss = base.withReduction(r);
                Map<String, Object> saved = LossConfig.of(loss);
                @SuppressWarnings("unchecked")
                Map<String, Object> config = (Map<String, Object>) saved.get("config");
                assertEquals(r.kerasName(), config.get("reduction"), base.name());
                Loss back = LossConfig.make(Json.plain(saved));
                assertEquals(r, back.reduction(), base.name() + " " + r);
                assertEquals(Json.plain(((KerasObject) loss).kerasConfig()),
                        Json.plain(((KerasObject) back).kerasConfig()), base.name() + " " + r);
            }
        }
    }

    private static Loss read(Object reduction, boolean present) {
        Map<String, Object> config = new HashMap<>();
        config.put("name", "mean_squared_error");
        if (present) {
            config.put("reduction", reduction);
        }
        return LossConfig.make(Map.of("module", "keras.losses", "class_name", "MeanSquaredError", "config", config));
    }

    @Test
    void kerasFilesReductionsAreRead() {
        assertEquals(Reduction.SUM_OVER_BATCH_SIZE, read(null, false).reduction());
        assertEquals(Reduction.NONE, read(null, true).reduction());
        assertEquals(Reduction.NONE, read("none", true).reduction());
        assertEquals(Reduction.SUM, read("sum", true).reduction());
        assertEquals(Reduction.MEAN_WITH_SAMPLE_WEIGHT, read("mean_with_sample_weight", true).reduction());
        assertEquals(Reduction.SUM_OVER_BATCH_SIZE, read("auto", true).reduction());
        ConfigError e = assertThrows(ConfigError.class, () -> read("avg", true));
        assertTrue(e.getMessage().contains("MeanSquaredError") && e.getMessage().contains("'avg'"), e.getMessage());
        ConfigError notText = assertThrows(ConfigError.class, () -> read(3, true));
        assertTrue(notText.getMessage().contains("reduction"), notText.getMessage());
    }

    @Test
    void aSavedModelEvaluatesToTheSameSummedLoss() throws IOException {
        int n = 12;
        SplittableRandom random = new SplittableRandom(3);
        float[] x = new float[n * 4];
        float[] y = new float[n * 2];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) random.nextGaussian();
        }
        for (int i = 0; i < y.length; i++) {
            y[i] = (float) random.nextGaussian();
        }
        Tensor xs = Tensor.of(x, n, 4);
        Tensor ys = Tensor.of(y, n, 2);
        RandomSeed.set(5);
        Model m = Sequential.of(Layers.input(4), Layers.dense(3, Activation.TANH), Layers.dense(2));
        m.compile(Optimizers.sgd(0.01f), Losses.meanSquaredError().withReduction(Reduction.SUM));
        double summed = m.evaluate(xs, ys, n).get("loss");
        Path file = dir.resolve("summed.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        assertEquals(summed, loaded.evaluate(xs, ys, n).get("loss"), 1e-6 * Math.abs(summed));
        // The same model with the default reduction: the mean, n times smaller.
        m.compile(Optimizers.sgd(0.01f), Losses.meanSquaredError());
        assertEquals(summed / n, m.evaluate(xs, ys, n).get("loss"), 1e-6 * Math.abs(summed));
    }
}
