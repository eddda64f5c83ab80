package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Regularizer;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.LearningRateSchedule;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A saved and loaded model predicts the same bits and trains on exactly as the original. */
class KerasRoundTripTest {
    @TempDir
    Path dir;

    static Tensor[] images(int n) {
        SplittableRandom r = new SplittableRandom(7);
        float[] x = new float[n * 8 * 8];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(3);
            for (int j = 0; j < 64; j++) {
                x[i * 64 + j] = (float) r.nextGaussian() + (j % 3 == y[i] ? 0.5f : 0f);
            }
        }
        return new Tensor[] {Tensor.of(x, n, 8, 8, 1), Tensor.of(y, n)};
    }

    /** Conv, batch norm, pooling, dropout, an L2 regularizer: everything a step's state depends on. */
    static Model cnn() {
        return Sequential.of(
                Layers.input(8, 8, 1),
                Layers.conv2d(4, 3, Activation.RELU),
                Layers.batchNormalization(),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(16, Activation.GELU, Regularizer.l2(1e-3f)),
                Layers.dropout(0.25f),
                Layers.dense(3));
    }

    private static void assertSameWeights(Model a, Model b) {
        List<Tensor> wa = a.getWeights();
        List<Tensor> wb = b.getWeights();
        assertEquals(wa.size(), wb.size());
        for (int i = 0; i < wa.size(); i++) {
            assertArrayEquals(wa.get(i).toArray(), wb.get(i).toArray(), a.variables().get(i).name());
        }
    }

    @Test
    void aLoadedModelPredictsTheSameBitsAndTrainsOnExactly() throws IOException {
        Tensor[] xy = images(96);
        RandomSeed.set(11);
        Model original = cnn();
        original.compile(Optimizers.adam(3e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        original.fit(xy[0], xy[1], Fit.epochs(2).batchSize(16).seed(5).verbose(0));
        Path file = dir.resolve("cnn.keras");
        KerasModels.save(original, file);

        Model loaded = KerasModels.load(file);
        assertEquals(original.summary(), loaded.summary());
        assertSameWeights(original, loaded);
        assertArrayEquals(original.predict(xy[0]).toArray(), loaded.predict(xy[0]).toArray());
        assertEquals(original.optimizer().iterations(), loaded.optimizer().iterations());
        assertEquals(original.randomState(), loaded.randomState());
        assertEquals(original.evaluate(xy[0], xy[1], 32), loaded.evaluate(xy[0], xy[1], 32));

        // Both continue: the Adam moments, the step count (bias correction), the dropout seeds and the batch-norm
        // statistics all have to match for the weights to stay equal bit for bit.
        original.fit(xy[0], xy[1], Fit.epochs(2).batchSize(16).seed(6).verbose(0));
        loaded.fit(xy[0], xy[1], Fit.epochs(2).batchSize(16).seed(6).verbose(0));
        assertSameWeights(original, loaded);
    }

    @Test
    void theArchiveIsKerasThreeLayout() throws IOException {
        Tensor[] xy = images(32);
        Model m = cnn();
        m.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(1).verbose(0));
        Path file = dir.resolve("m.keras");
        KerasModels.save(m, file);
        try (ZipFile zip = new ZipFile(file.toFile())) {
            assertEquals(List.of("metadata.json", "config.json", "model.weights.h5"),
                    zip.stream().map(e -> e.getName()).toList());
            Map<String, Object> config = Json.parseObject(zip.getInputStream(zip.getEntry("config.json"))
                    .readAllBytes());
            assertEquals("Sequential", config.get("class_name"));
            assertEquals("keras", config.get("module"));
            assertTrue(config.containsKey("build_config"));
            @SuppressWarnings("unchecked")
            Map<String, Object> compile = (Map<String, Object>) config.get("compile_config");
            @SuppressWarnings("unchecked")
            Map<String, Object> opt = (Map<String, Object>) compile.get("optimizer");
            assertEquals("Adam", opt.get("class_name"));
            @SuppressWarnings("unchecked")
            Map<String, Object> optConfig = (Map<String, Object>) opt.get("config");
            assertEquals(0.9, optConfig.get("beta_1"));
            assertEquals(List.of("accuracy"), compile.get("metrics"));
            try (io.jhdf.HdfFile h5 = io.jhdf.HdfFile.fromBytes(zip.getInputStream(zip.getEntry("model.weights.h5"))
                    .readAllBytes())) {
                assertArrayEquals(new int[] {3, 3, 1, 4},
                        h5.getDatasetByPath("layers/conv2d/vars/0").getDimensions());
                assertArrayEquals(new int[] {4}, h5.getDatasetByPath("layers/batch_normalization/vars/3")
                        .getDimensions());
                assertArrayEquals(new int[] {16, 3}, h5.getDatasetByPath("layers/dense_1/vars/0").getDimensions());
                assertTrue(((io.jhdf.api.Group) h5.getByPath("layers/flatten/vars")).getChildren().isEmpty());
                assertTrue(((io.jhdf.api.Group) h5.getByPath("vars")).getChildren().isEmpty());
                assertEquals(2L, h5.getDatasetByPath("optimizer/vars/0").getData());
                assertEquals(1e-3f, h5.getDatasetByPath("optimizer/vars/1").getData());
                // Adam's slots, interleaved per weight as Keras' add_optimizer_variables makes them.
                Variable kernel = m.trainableVariables().get(0);
                assertArrayEquals(m.optimizer().slotsOf(kernel).get(1).value().toArray(),
                        flat(h5.getDatasetByPath("optimizer/vars/3").getData()));
            }
        }
    }

    private static float[] flat(Object data) {
        java.util.List<Float> out = new java.util.ArrayList<>();
        collect(data, out);
        float[] f = new float[out.size()];
        for (int i = 0; i < f.length; i++) {
            f[i] = out.get(i);
        }
        return f;
    }

    private static void collect(Object data, java.util.List<Float> out) {
        if (data instanceof float[] row) {
            for (float v : row) {
                out.add(v);
            }
        } else {
            for (Object o : (Object[]) data) {
                collect(o, out);
            }
        }
    }

    @Test
    void functionalModelsWithSharedLayersSeveralInputsAndEveryLayerRoundTrip() throws IOException {
        RandomSeed.set(3);
        SymbolicTensor tokens = Input.of(DType.INT32, 6);
        SymbolicTensor image = Input.of(8, 8, 1);
        SymbolicTensor emb = Layers.embedding(20, 8, true).apply(tokens);
        SymbolicTensor seq = Layers.conv1d(8, 3, 1, Padding.CAUSAL, Activation.RELU).apply(emb);
        SymbolicTensor norm = Layers.layerNormalization().apply(seq);
        SymbolicTensor att = Layers.multiHeadAttention(2, 4, true).apply(norm, norm);
        SymbolicTensor lstm = Layers.lstm(5, true, false).apply(att);
        SymbolicTensor gru = Layers.gru(5, true, true).apply(lstm);
        SymbolicTensor rnn = Layers.simpleRnn(4).apply(gru);
        SymbolicTensor pooled = Layers.globalMaxPooling1d().apply(Layers.maxPooling1d(2).apply(gru));
        SymbolicTensor dilated = new dev.brisk.nn.layers.Conv1D(4, 3, 1, Padding.CAUSAL, 2, Activation.LINEAR, true,
                dev.brisk.nn.Initializer.glorotUniform(), dev.brisk.nn.Initializer.zeros(), null, null).apply(seq);
        SymbolicTensor avg1 = Layers.globalAveragePooling1d().apply(Layers.averagePooling1d(2).apply(dilated));
        SymbolicTensor conv = Layers.conv2d(4, 3, 1, Padding.SAME, Activation.TANH).apply(image);
        SymbolicTensor a = Layers.averagePooling2d(2).apply(conv);
        SymbolicTensor g = Layers.globalAveragePooling2d().apply(a);
        SymbolicTensor r = Layers.flatten().apply(Layers.reshape(16, 4).apply(a));
        var shared = Layers.dense(4, Activation.SIGMOID);
        SymbolicTensor s1 = shared.apply(g);
        SymbolicTensor s2 = shared.apply(Layers.dense(4).apply(rnn));
        SymbolicTensor sum = Layers.add().apply(s1, s2);
        SymbolicTensor act = Layers.activation(Activation.LEAKY_RELU).apply(sum);
        SymbolicTensor joined = Layers.concatenate().apply(act, pooled, avg1, Layers.dropout(0.5f).apply(r));
        SymbolicTensor out1 = Layers.dense(3).apply(joined);
        SymbolicTensor out2 = Layers.dense(1).apply(Layers.batchNormalization().apply(joined));
        Model m = Model.of(List.of(tokens, image), List.of(out1, out2));
        m.compile(Optimizers.sgd(LearningRateSchedule.exponentialDecay(0.05f, 10, 0.9f, false), 0.9f, true),
                List.of(Losses.sparseCategoricalCrossentropy(true), Losses.meanSquaredError()));

        int n = 24;
        SplittableRandom rnd = new SplittableRandom(1);
        int[] ids = new int[n * 6];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = rnd.nextInt(20);
        }
        Tensor[] x = {Tensor.ofInts(ids, n, 6), images(n)[0]};
        float[] targets = new float[n];
        for (int i = 0; i < n; i++) {
            targets[i] = (float) rnd.nextGaussian();
        }
        Tensor[] y = {images(n)[1], Tensor.of(targets, n, 1)};
        m.fit(x, y, Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        Path file = dir.resolve("f.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        assertEquals(m.summary(), loaded.summary());
        Tensor[] p1 = m.predict(x, 8);
        Tensor[] p2 = loaded.predict(x, 8);
        for (int i = 0; i < p1.length; i++) {
            assertArrayEquals(p1[i].toArray(), p2[i].toArray(), "output " + i);
        }
        m.fit(x, y, Fit.epochs(1).batchSize(8).seed(4).verbose(0));
        loaded.fit(x, y, Fit.epochs(1).batchSize(8).seed(4).verbose(0));
        assertSameWeights(m, loaded);
    }

    @Test
    void everyScheduleRoundTripsWithItsConfiguration() throws IOException {
        LearningRateSchedule[] schedules = {
            LearningRateSchedule.piecewiseConstantDecay(new long[] {3, 7}, new float[] {0.1f, 0.05f, 0.01f}),
            LearningRateSchedule.polynomialDecay(0.1f, 8, 0.01f, 2f, true),
            LearningRateSchedule.inverseTimeDecay(0.1f, 5, 0.5f, true),
            LearningRateSchedule.cosineDecayRestarts(0.1f, 4, 2f, 0.5f, 0.01f),
            LearningRateSchedule.cosineDecay(0f, 20, 0.1f, 0.05f, 5)};
        Tensor[] xy = images(16);
        for (int i = 0; i < schedules.length; i++) {
            Model m = cnn();
            m.compile(Optimizers.sgd(schedules[i], 0.9f, false), Losses.sparseCategoricalCrossentropy(true));
            m.fit(xy[0], xy[1], Fit.epochs(2).batchSize(4).seed(1).verbose(0));
            Path file = dir.resolve("schedule" + i + ".keras");
            KerasModels.save(m, file);
            Model loaded = KerasModels.load(file);
            LearningRateSchedule back = loaded.optimizer().schedule();
            for (long step = 0; step < 40; step++) {
                assertEquals(schedules[i].at(step), back.at(step), "schedule " + i + " at step " + step);
            }
            m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(4).seed(2).verbose(0));
            loaded.fit(xy[0], xy[1], Fit.epochs(1).batchSize(4).seed(2).verbose(0));
            assertSameWeights(m, loaded);
        }
    }

    @Test
    void activationMergeAndReshapingLayersRoundTripWithTheirOptions() throws IOException {
        SymbolicTensor in = Input.of(6, 6, 1);
        SymbolicTensor x = Layers.zeroPadding2d(1).apply(in);
        x = Layers.conv2d(4, 3, 2, Padding.VALID, Activation.LINEAR).apply(x);
        x = Layers.prelu(1, 2).apply(x);
        x = Layers.upSampling2d(2).apply(x);
        x = Layers.relu(4f, 0.1f, 0.2f).apply(x);
        x = Layers.conv2d(4, 3, 2, Padding.SAME, Activation.SELU).apply(x);
        SymbolicTensor flat = Layers.flatten().apply(x);
        SymbolicTensor a = Layers.dense(8, Activation.MISH).apply(flat);
        SymbolicTensor b = Layers.leakyRelu(0.1f).apply(Layers.dense(8, Activation.SILU).apply(flat));
        SymbolicTensor merged = Layers.maximum().apply(Layers.multiply().apply(a, b), Layers.subtract().apply(a, b),
                Layers.minimum().apply(a, b));
        merged = Layers.average().apply(merged, Layers.elu(0.5f).apply(merged));
        SymbolicTensor seq = Layers.permute(2, 1).apply(Layers.repeatVector(2).apply(merged));
        SymbolicTensor out = Layers.softmax(-1).apply(Layers.dense(2).apply(Layers.flatten().apply(seq)));
        Model m = Model.of(in, out);
        m.compile(Optimizers.adam(0.01f), Losses.sparseCategoricalCrossentropy(false));
        float[] pixels = new float[16 * 36];
        float[] labels = new float[16];
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (float) rnd.nextGaussian();
        }
        for (int i = 0; i < labels.length; i++) {
            labels[i] = i % 2;
        }
        Tensor xs = Tensor.of(pixels, 16, 6, 6, 1);
        Tensor ys = Tensor.of(labels, 16, 1);
        m.fit(xs, ys, Fit.epochs(1).batchSize(8).seed(1).verbose(0));
        Path file = dir.resolve("parity.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        assertEquals(m.summary(), loaded.summary());
        assertArrayEquals(m.predict(xs, 8).toArray(), loaded.predict(xs, 8).toArray());
        m.fit(xs, ys, Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        loaded.fit(xs, ys, Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        assertSameWeights(m, loaded);
    }

    @Test
    void rmspropAndFrozenLayersRoundTrip() throws IOException {
        Tensor[] xy = images(32);
        Model m = cnn();
        m.layer(m.layers().get(1).name()).setTrainable(false);
        m.compile(Optimizers.rmsprop(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(1).verbose(0));
        Path file = dir.resolve("r.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        assertFalse(loaded.layers().get(1).isTrainable());
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(2).verbose(0));
        loaded.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(2).verbose(0));
        assertSameWeights(m, loaded);
    }

    @Test
    void loadWeightsThatDoNotFitLeavesTheModelUnchanged() throws IOException {
        Model m = cnn();
        m.compile(Optimizers.adam(), Losses.sparseCategoricalCrossentropy(true));
        Path file = dir.resolve("w.keras");
        KerasModels.save(m, file);
        Model same = cnn();
        KerasModels.loadWeights(same, file);
        assertSameWeights(m, same);
        Model other = Sequential.of(Layers.input(8, 8, 1), Layers.conv2d(4, 3, Activation.RELU),
                Layers.batchNormalization(), Layers.maxPooling2d(2), Layers.flatten(),
                Layers.dense(16, Activation.GELU), Layers.dropout(0.25f), Layers.dense(5));
        List<Tensor> before = other.getWeights();
        KerasFileException e = assertThrows(KerasFileException.class, () -> KerasModels.loadWeights(other, file));
        assertTrue(e.getMessage().contains("model.weights.h5") && e.getMessage().contains("layers/dense_1/vars/0"),
                e.getMessage());
        for (int i = 0; i < before.size(); i++) {
            assertArrayEquals(before.get(i).toArray(), other.getWeights().get(i).toArray());
        }
        assertTrue(Files.size(file) > 0);
    }
}
