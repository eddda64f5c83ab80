package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.io.KerasObject;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Auc;
import dev.brisk.metrics.ConfusionCount;
import dev.brisk.metrics.F1Score;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.metrics.Metrics;
import dev.brisk.metrics.RegressionError;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Bidirectional;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What saving once refused: Bidirectional and TimeDistributed, recurrent layers that return their states (several
 * outputs, states fed to another layer's initial state), and every loss and metric Brisk has, with their options.
 */
class WrappersStatesLossesMetricsRoundTripTest {
    @TempDir
    Path dir;

    private static Tensor ids(int n, int steps) {
        SplittableRandom r = new SplittableRandom(5);
        int[] v = new int[n * steps];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i % steps) < (i / steps) % 3 ? 0 : 1 + r.nextInt(19); // padded at the start, as pad_sequences
        }
        return Tensor.ofInts(v, n, steps);
    }

    private static Tensor gaussian(long seed, int... shape) {
        SplittableRandom r = new SplittableRandom(seed);
        int size = 1;
        for (int d : shape) {
            size *= d;
        }
        float[] v = new float[size];
        for (int i = 0; i < size; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return Tensor.of(v, shape);
    }

    private static void assertSame(Model a, Model b, Tensor[] x) {
        Tensor[] pa = a.predict(x, 4);
        Tensor[] pb = b.predict(x, 4);
        assertEquals(pa.length, pb.length);
        for (int i = 0; i < pa.length; i++) {
            assertArrayEquals(pa[i].toArray(), pb[i].toArray(), "output " + i);
        }
        for (int i = 0; i < a.variables().size(); i++) {
            assertArrayEquals(a.getWeights().get(i).toArray(), b.getWeights().get(i).toArray(),
                    a.variables().get(i).name());
        }
    }

    @Test
    void wrappersAndReturnedStatesRoundTripAndTrainOnExactly() throws IOException {
        RandomSeed.set(9);
        SymbolicTensor tokens = Input.of(DType.INT32, 6);
        SymbolicTensor e = Layers.embedding(20, 5, true).apply(tokens);
        SymbolicTensor y = Layers.bidirectional(Layers.lstm(4, true, false), Bidirectional.MergeMode.SUM).apply(e);
        y = Layers.timeDistributed(Layers.dense(3, Activation.TANH)).apply(y);
        List<SymbolicTensor> encoded = Layers.lstm(4, true, false, true).applyAll(y);
        SymbolicTensor decoded = Layers.lstm(4, false, true).apply(encoded.get(0), encoded.get(1), encoded.get(2));
        List<SymbolicTensor> gru = Layers.gru(3, false, false, true).applyAll(e);
        SymbolicTensor both = Layers.bidirectional(Layers.gru(2)).apply(y);
        SymbolicTensor out = Layers.dense(2).apply(Layers.concatenate().apply(decoded, gru.get(1), both));
        Model m = Model.of(List.of(tokens), List.of(out, encoded.get(2)));
        m.compile(Optimizers.adam(0.01f), List.of(Losses.sparseCategoricalCrossentropy(true),
                Losses.meanSquaredError()));
        Tensor x = ids(16, 6);
        Tensor[] targets = {Tensor.of(new float[16], 16), gaussian(2, 16, 4)};
        m.fit(new Tensor[] {x}, targets, Fit.epochs(1).batchSize(8).seed(1).verbose(0));
        Path file = dir.resolve("wrapped.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        assertEquals(m.summary(), loaded.summary());
        assertSame(m, loaded, new Tensor[] {x});
        m.fit(new Tensor[] {x}, targets, Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        loaded.fit(new Tensor[] {x}, targets, Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        assertSame(m, loaded, new Tensor[] {x});
    }

    /**
     * Bidirectional with merge mode NONE (Keras' merge_mode=None): the two directions are two outputs, saved as
     * {@code "merge_mode": null} and read back as NONE; the loaded model predicts and trains exactly as the saved
     * one. A merge_mode Keras does not have is refused naming it.
     */
    @Test
    void unmergedBidirectionalRoundTripsAsKerasNone() throws IOException {
        RandomSeed.set(12);
        SymbolicTensor tokens = Input.of(DType.INT32, 6);
        SymbolicTensor e = Layers.embedding(20, 5, true).apply(tokens);
        List<SymbolicTensor> both = Layers.bidirectional(Layers.lstm(3, true, false), Bidirectional.MergeMode.NONE)
                .applyAll(e);
        SymbolicTensor out = Layers.dense(2).apply(Layers.globalAveragePooling1d().apply(
                Layers.concatenate().apply(both.get(0), both.get(1))));
        Model m = Model.of(List.of(tokens), List.of(out, both.get(1)));
        m.compile(Optimizers.adam(0.01f), List.of(Losses.sparseCategoricalCrossentropy(true),
                Losses.meanSquaredError()));
        Tensor x = ids(16, 6);
        Tensor[] targets = {Tensor.of(new float[16], 16), gaussian(3, 16, 6, 3)};
        m.fit(new Tensor[] {x}, targets, Fit.epochs(1).batchSize(8).seed(1).verbose(0));
        Path file = dir.resolve("unmerged.keras");
        KerasModels.save(m, file);
        String config;
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(file.toFile())) {
            config = new String(zip.getInputStream(zip.getEntry("config.json")).readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
        }
        assertTrue(config.contains("\"merge_mode\": null") || config.contains("\"merge_mode\":null"), config);
        Model loaded = KerasModels.load(file);
        assertEquals(m.summary(), loaded.summary());
        assertSame(m, loaded, new Tensor[] {x});
        m.fit(new Tensor[] {x}, targets, Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        loaded.fit(new Tensor[] {x}, targets, Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        assertSame(m, loaded, new Tensor[] {x});
        ConfigError bad = assertThrows(ConfigError.class, () -> Wrappers.make("Bidirectional", new ConfigView(
                "layer 'b' (Bidirectional)", Map.of("name", "b", "merge_mode", "none")), c -> null));
        assertTrue(bad.getMessage().contains("merge_mode") && bad.getMessage().contains("'none'"),
                bad.getMessage());
    }

    @Test
    void everyLossRoundTripsWithItsOptions() throws IOException {
        Loss[] losses = {Losses.sparseCategoricalCrossentropy(false), Losses.categoricalCrossentropy(true, 0.1f),
            Losses.binaryCrossentropy(true, 0.2f), Losses.meanSquaredError(), Losses.meanAbsoluteError(),
            Losses.huber(0.5f), Losses.logCosh(), Losses.klDivergence(), Losses.poisson(), Losses.hinge(),
            Losses.squaredHinge(), Losses.categoricalHinge(), Losses.cosineSimilarity(),
            Losses.meanAbsolutePercentageError(), Losses.meanSquaredLogarithmicError()};
        for (Loss loss : losses) {
            Map<String, Object> saved = LossConfig.of(loss);
            Loss back = LossConfig.make(Json.plain(saved));
            assertEquals(loss.name(), back.name());
            assertEquals(Json.plain(((KerasObject) loss).kerasConfig()), Json.plain(((KerasObject) back)
                    .kerasConfig()), loss.name());
        }
        // Keras' string names and aliases read too.
        assertEquals("huber_loss", LossConfig.make("huber").name());
        assertEquals("kl_divergence", LossConfig.make("kld").name());
        assertEquals("mean_squared_error", LossConfig.make("mse").name());
        ConfigError e = assertThrows(ConfigError.class, () -> LossConfig.make(Map.of("class_name", "Huber",
                "config", Map.of("name", "huber_loss", "label_smoothing", 0.1))));
        assertTrue(e.getMessage().contains("label_smoothing"), e.getMessage());
    }

    @Test
    void aModelWithEveryMetricRoundTripsAndEvaluatesAlike() throws IOException {
        MetricSpec[] metrics = {Metrics.binaryAccuracy(0.4f), Metrics.precision(0.3f, 1, 0), Metrics.recall(),
            Metrics.auc(50, Auc.Curve.PR, Auc.Summation.MAJORING, true),
            Metrics.confusionCount(ConfusionCount.Cell.FALSE_NEGATIVES), Metrics.topKCategoricalAccuracy(2),
            Metrics.f1Score(F1Score.Average.WEIGHTED, 0.5f),
            Metrics.regressionError(RegressionError.Kind.MEAN_SQUARED_LOGARITHMIC_ERROR),
            Metrics.rootMeanSquaredError(), Metrics.r2Score(), Metrics.categoricalAccuracy()};
        SymbolicTensor in = Input.of(4);
        Model m = Model.of(in, Layers.dense(3, Activation.SIGMOID).apply(in));
        m.compile(Optimizers.sgd(0.1f), Losses.binaryCrossentropy(), metrics);
        Tensor x = gaussian(3, 12, 4);
        float[] t = new float[36];
        for (int i = 0; i < t.length; i++) {
            t[i] = (i * 7 % 5) < 2 ? 1f : 0f;
        }
        Tensor yt = Tensor.of(t, 12, 3);
        m.fit(x, yt, Fit.epochs(1).batchSize(4).seed(1).verbose(0));
        Path file = dir.resolve("metrics.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        assertEquals(m.evaluate(x, yt, 4), loaded.evaluate(x, yt, 4));
        assertEquals(CompileConfig.of(m).get("metrics"), CompileConfig.of(loaded).get("metrics"));
        MetricSpec micro = Metrics.f1Score(F1Score.Average.MICRO);
        assertEquals(MetricConfig.of(micro), MetricConfig.of(MetricConfig.make(Json.plain(MetricConfig.of(micro)))));
        // Keras' string names read too.
        for (String name : List.of("acc", "mae", "auc", "precision", "top_k_categorical_accuracy", "r2_score",
                "true_positives", "SparseTopKCategoricalAccuracy")) {
            MetricConfig.make(name);
        }
        ConfigError e = assertThrows(ConfigError.class, () -> MetricConfig.make(Map.of("class_name", "AUC",
                "config", Map.of("name", "auc", "multi_label", true))));
        assertTrue(e.getMessage().contains("multi_label"), e.getMessage());
    }
}
