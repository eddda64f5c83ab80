package dev.brisk.api;

import static dev.brisk.api.TestData.assertSameValues;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Input;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Regularizer;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.LearningRateSchedule;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Keras-style model API end to end: summaries, functional models, training, weights, optimisers, layers. */
class ModelApiTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void seed() {
        RandomSeed.set(1234);
    }

    // ---- summary ----

    @Test
    void w1MlpSummaryMatchesKeras() {
        Model model = Sequential.of(
                Layers.input(784),
                Layers.dense(512, Activation.RELU),
                Layers.dense(512, Activation.RELU),
                Layers.dense(10));
        String s = model.summary();
        List<TestData.Row> rows = TestData.summaryRows(s);
        assertEquals(3, rows.size(), s);
        assertEquals(List.of("Dense", "Dense", "Dense"), rows.stream().map(TestData.Row::type).toList(), s);
        assertEquals(List.of("(None, 512)", "(None, 512)", "(None, 10)"),
                rows.stream().map(TestData.Row::shape).toList(), s);
        assertEquals(List.of("401,920", "262,656", "5,130"), rows.stream().map(TestData.Row::params).toList(), s);
        assertEquals(669_706L, model.parameterCount());
        assertTrue(s.startsWith("Model: \"" + model.name() + "\"\n"), s);
        assertTrue(s.contains("Layer (type)"), s);
        assertTrue(s.contains("Output Shape"), s);
        assertTrue(s.contains("Param #"), s);
        assertFalse(s.contains("Connected to"), "a Sequential summary has no 'Connected to' column:\n" + s);
        assertTrue(s.contains("Total params: 669,706 (2.55 MB)\n"), s);
        assertTrue(s.contains("Trainable params: 669,706 (2.55 MB)\n"), s);
        assertTrue(s.contains("Non-trainable params: 0 (0.00 B)\n"), s);
    }

    @Test
    void w2CnnSummaryMatchesKeras() {
        Model model = Sequential.of(
                Layers.input(28, 28, 1),
                Layers.conv2d(32, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.conv2d(64, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(128, Activation.RELU),
                Layers.dense(10));
        String s = model.summary();
        List<TestData.Row> rows = TestData.summaryRows(s);
        assertEquals(List.of("Conv2D", "MaxPooling2D", "Conv2D", "MaxPooling2D", "Flatten", "Dense", "Dense"),
                rows.stream().map(TestData.Row::type).toList(), s);
        assertEquals(List.of("(None, 26, 26, 32)", "(None, 13, 13, 32)", "(None, 11, 11, 64)", "(None, 5, 5, 64)",
                "(None, 1600)", "(None, 128)", "(None, 10)"), rows.stream().map(TestData.Row::shape).toList(), s);
        assertEquals(List.of("320", "0", "18,496", "0", "0", "204,928", "1,290"),
                rows.stream().map(TestData.Row::params).toList(), s);
        assertEquals(225_034L, model.parameterCount());
        assertTrue(s.contains("Total params: 225,034 (879.04 KB)\n"), s);
        assertTrue(s.contains("Trainable params: 225,034 (879.04 KB)\n"), s);
        // Keras' default layer names.
        assertTrue(rows.get(0).name().startsWith("conv2d"), s);
        assertTrue(rows.get(1).name().startsWith("max_pooling2d"), s);
    }

    @Test
    void batchNormalizationParamsAreSplitIntoTrainableAndNot() {
        Model model = Sequential.of(Layers.input(6, 6, 1), Layers.conv2d(8, 3, Activation.LINEAR),
                Layers.batchNormalization());
        String s = model.summary();
        List<TestData.Row> rows = TestData.summaryRows(s);
        assertEquals("32", rows.get(1).params(), s);
        assertTrue(s.contains("Total params: 112 (448.00 B)\n"), s);
        assertTrue(s.contains("Trainable params: 96 (384.00 B)\n"), s);
        assertTrue(s.contains("Non-trainable params: 16 (64.00 B)\n"), s);
    }

    @Test
    void mlpLearnsTheFashionMnistFixture() throws IOException {
        dev.brisk.data.TrainTestSplit data =
                dev.brisk.data.FashionMnist.load(Path.of("src/test/resources/fashion-mnist-mini"));
        dev.brisk.data.InMemoryDataset train = data.train().flatten();
        dev.brisk.data.InMemoryDataset test = data.test().flatten();
        Model model = Sequential.of(Layers.input(784), Layers.dense(64, Activation.RELU), Layers.dense(10));
        model.compile(Optimizers.adam(2e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        History h = model.fit(train, Fit.epochs(4).batchSize(32).validation(test).verbose(0));
        assertEquals(List.of("loss", "accuracy", "val_loss", "val_accuracy", "cpu_util", "input_wait"),
                List.copyOf(h.asMap().keySet()));
        assertTrue(h.last("loss") < 0.6 * h.get("loss").get(0), h.toString());
        assertTrue(h.last("val_accuracy") > 0.6, h.toString());
        Map<String, Double> eval = model.evaluate(test, 32);
        assertEquals(h.last("val_loss"), eval.get("loss"), 1e-6);
        assertEquals(h.last("val_accuracy"), eval.get("accuracy"), 1e-12);
        assertEquals(dev.brisk.tensor.Shape.of(test.size(), 10), model.predict(test.features()).shape());
    }

    // ---- functional API ----

    private record TwoTower(Model model, Dense shared, Layer out1, Layer out2) {
    }

    private static TwoTower twoTower() {
        SymbolicTensor a = Input.of(4);
        SymbolicTensor b = Input.of(4);
        Dense shared = Layers.dense(16, Activation.TANH);
        SymbolicTensor ha = shared.apply(a);
        SymbolicTensor hb = shared.apply(b);
        SymbolicTensor sum = Layers.add().apply(ha, hb);
        SymbolicTensor cat = Layers.concatenate().apply(ha, hb);
        Dense head1 = Layers.dense(3);
        Dense head2 = Layers.dense(1);
        SymbolicTensor out1 = head1.apply(sum);
        SymbolicTensor out2 = head2.apply(cat);
        assertEquals(dev.brisk.tensor.Shape.of(32), cat.shape());
        return new TwoTower(Model.of(List.of(a, b), List.of(out1, out2)), shared, head1, head2);
    }

    /** Targets: class = argmax of (xa + xb)[0..2]; regression = xa[0] - 2 xb[1]. */
    private static Tensor[][] twoTowerData(int n, long seed) {
        Tensor xa = TestData.gaussian(seed, n, 4);
        Tensor xb = TestData.gaussian(seed + 1, n, 4);
        float[] cls = new float[n];
        float[] reg = new float[n];
        for (int i = 0; i < n; i++) {
            int best = 0;
            for (int j = 1; j < 3; j++) {
                if (xa.at(i, j) + xb.at(i, j) > xa.at(i, best) + xb.at(i, best)) {
                    best = j;
                }
            }
            cls[i] = best;
            reg[i] = xa.at(i, 0) - 2 * xb.at(i, 1);
        }
        return new Tensor[][] {{xa, xb}, {Tensor.of(cls, n), Tensor.of(reg, n, 1)}};
    }

    @Test
    void functionalModelWithSharedLayerTwoInputsTwoOutputsLearns() {
        TwoTower tt = twoTower();
        Model model = tt.model();
        // The shared Dense is one layer with one set of weights: 4*16+16 = 80, heads 16*3+3 = 51 and 32*1+1 = 33.
        assertEquals(80 + 51 + 33, model.parameterCount());
        assertEquals(6, model.trainableVariables().size());
        assertEquals(1, model.layers().stream().filter(l -> l == tt.shared()).count());
        String s = model.summary();
        assertTrue(s.contains("Total params: 164 (656.00 B)"), s);
        assertTrue(s.contains("Connected to"), s);

        model.compile(Optimizers.adam(2e-2f),
                List.of(Losses.sparseCategoricalCrossentropy(true), Losses.meanSquaredError()),
                Metrics.accuracy());
        Tensor[][] data = twoTowerData(256, 5);
        Tensor[] x = data[0];
        Tensor[] y = data[1];
        Tensor[] before = model.predict(x, 64);
        double initial = lossOf(before, y);
        History h = model.fit(x, y, Fit.epochs(25).batchSize(32).seed(9).verbose(0));
        assertEquals(25, h.get("loss").size());
        Tensor[] after = model.predict(x, 64);
        double trained = lossOf(after, y);
        assertTrue(trained < 0.25 * initial, "summed loss should drop by 4x: " + initial + " -> " + trained);
        assertTrue(h.last("loss") < 0.3 * h.get("loss").get(0), "history: " + h.get("loss"));
        // the reported training loss is the sum of both outputs' losses (the same quantity computed by hand)
        assertEquals(trained, h.last("loss"), 0.25 * trained + 0.05);
        // per-output metrics are prefixed by the output layer's name, as Keras does
        assertTrue(h.asMap().containsKey(tt.out1().name() + "_accuracy"), h.asMap().keySet().toString());
        assertTrue(h.last(tt.out1().name() + "_accuracy") > 0.8, h.toString());

        // predict shapes
        assertEquals(2, after.length);
        assertEquals(dev.brisk.tensor.Shape.of(256, 3), after[0].shape());
        assertEquals(dev.brisk.tensor.Shape.of(256, 1), after[1].shape());
        // batch size does not change predictions (last partial batch included)
        Tensor[] other = model.predict(x, 100);
        assertTrue(TestData.maxAbsDiff(after[0], other[0]) < 1e-5);
        assertTrue(TestData.maxAbsDiff(after[1], other[1]) < 1e-5);
    }

    /** Sparse cross-entropy of logits plus MSE, computed on the host. */
    private static double lossOf(Tensor[] pred, Tensor[] y) {
        int n = pred[0].shape().dim(0);
        double ce = 0;
        double mse = 0;
        for (int i = 0; i < n; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < 3; c++) {
                max = Math.max(max, pred[0].at(i, c));
            }
            double z = 0;
            for (int c = 0; c < 3; c++) {
                z += Math.exp(pred[0].at(i, c) - max);
            }
            ce += -(pred[0].at(i, (int) y[0].get(i)) - max - Math.log(z));
            double d = pred[1].get(i) - y[1].get(i);
            mse += d * d;
        }
        return ce / n + mse / n;
    }

    @Test
    void functionalSummaryListsInputsAndTheSharedLayersOwnParams() {
        TwoTower tt = twoTower();
        String s = tt.model().summary();
        List<TestData.Row> rows = TestData.summaryRows(s);
        long sharedRows = rows.stream().filter(r -> r.name().equals(tt.shared().name())).count();
        // Brisk lists one row per call; both must show the same (single) weight count of 80.
        assertTrue(sharedRows >= 1, s);
        rows.stream().filter(r -> r.name().equals(tt.shared().name()))
                .forEach(r -> assertEquals("80", r.params(), s));
        // input layers are listed with 0 params
        assertEquals(2, rows.stream().filter(r -> r.type().equals("InputLayer")).count(), s);
    }

    @Test
    void sharedLayerIsListedOnceAsInKeras() {
        TwoTower tt = twoTower();
        String s = tt.model().summary();
        long sharedRows = TestData.summaryRows(s).stream().filter(r -> r.name().equals(tt.shared().name())).count();
        assertEquals(1, sharedRows, s);
    }

    @Test
    void functionalModelRejectsOutputsFromForeignInputs() {
        SymbolicTensor a = Input.of(3);
        SymbolicTensor b = Input.of(3);
        SymbolicTensor out = Layers.add().apply(a, b);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Model.of(a, out));
        assertTrue(e.getMessage().contains(b.layer().name()), e.getMessage());
        assertTrue(e.getMessage().contains("not among the model's inputs"), e.getMessage());
    }

    // ---- Sequential built from data ----

    @Test
    void sequentialWithoutInputLayerIsBuiltFromTheData() {
        Sequential model = Sequential.of(Layers.dense(8, Activation.RELU), Layers.dense(3));
        assertFalse(model.isBuilt());
        assertTrue(model.summary().contains("not built yet"), model.summary());
        assertEquals(0, model.parameterCount());
        model.compile(Optimizers.adam(2e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        Tensor[] xy = TestData.classification(128, 5, 3);
        History h = model.fit(xy[0], xy[1], Fit.epochs(10).batchSize(16).verbose(0));
        assertTrue(model.isBuilt());
        assertEquals(5 * 8 + 8 + 8 * 3 + 3, model.parameterCount());
        List<TestData.Row> rows = TestData.summaryRows(model.summary());
        assertEquals(List.of("(None, 8)", "(None, 3)"), rows.stream().map(TestData.Row::shape).toList());
        assertEquals(dev.brisk.tensor.Shape.of(5), model.inputs().get(0).shape());
        assertTrue(h.last("loss") < h.get("loss").get(0), h.toString());
        assertTrue(h.last("accuracy") > 0.8, h.toString());
        assertEquals(dev.brisk.tensor.Shape.of(128, 3), model.predict(xy[0]).shape());
    }

    @Test
    void sequentialBuildWithoutData() {
        Sequential model = Sequential.of(Layers.dense(4), Layers.dense(2)).build(7);
        assertTrue(model.isBuilt());
        assertEquals(7 * 4 + 4 + 4 * 2 + 2, model.parameterCount());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> model.predict(Tensor.zeros(3, 6)));
        assertTrue(e.getMessage().contains("(None, 7)") && e.getMessage().contains("(None, 6)"), e.getMessage());
    }

    // ---- weights ----

    private static Sequential smallMlp() {
        return Sequential.of(Layers.input(5), Layers.dense(8, Activation.TANH), Layers.dense(3));
    }

    @Test
    void getAndSetWeightsRoundTrip() {
        Sequential model = smallMlp();
        model.compile(Optimizers.adam(5e-2f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = TestData.classification(64, 5, 8);
        List<Tensor> w0 = model.getWeights();
        assertEquals(4, w0.size());
        assertEquals(dev.brisk.tensor.Shape.of(5, 8), w0.get(0).shape());
        assertEquals(dev.brisk.tensor.Shape.of(8), w0.get(1).shape());
        Tensor p0 = model.predict(xy[0]).copy();

        // getWeights returns copies: changing them does not touch the model
        w0.get(0).set(0, 99f);
        assertNotEquals(99f, model.getWeights().get(0).get(0));
        w0.get(0).set(0, model.getWeights().get(0).get(0));

        model.fit(xy[0], xy[1], Fit.epochs(2).batchSize(16).verbose(0));
        Tensor p1 = model.predict(xy[0]).copy();
        assertTrue(TestData.maxAbsDiff(p0, p1) > 1e-3, "training should change the predictions");
        model.setWeights(w0);
        assertSameValues(p0, model.predict(xy[0]), 0, "predictions after restoring the weights");
        for (int i = 0; i < w0.size(); i++) {
            assertSameValues(w0.get(i), model.getWeights().get(i), 0, "weight " + i);
        }
    }

    @Test
    void setWeightsShapeMismatchNamesTheWeight() {
        Sequential model = smallMlp();
        Dense first = (Dense) model.layers().get(1);
        List<Tensor> w = new ArrayList<>(model.getWeights());
        w.set(0, Tensor.zeros(8, 5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> model.setWeights(w));
        String msg = e.getMessage();
        assertTrue(msg.contains(first.name() + "/kernel"), msg);
        assertTrue(msg.contains("(5, 8)") && msg.contains("(8, 5)"), msg);

        List<Tensor> before = model.getWeights();
        List<Tensor> lastWrong = new ArrayList<>(before);
        lastWrong.set(0, Tensor.zeros(before.get(0).shape()));
        lastWrong.set(3, Tensor.zeros(7));
        assertThrows(IllegalArgumentException.class, () -> model.setWeights(lastWrong));
        assertSameValues(before.get(0), model.getWeights().get(0), 0, "a rejected list changes no weight");
        Map<String, Tensor> byName = new java.util.LinkedHashMap<>(model.weightsByName());
        byName.replaceAll((k, v) -> Tensor.zeros(v.shape()));
        String lastName = model.variables().get(3).name();
        byName.put(lastName, Tensor.zeros(7));
        assertThrows(IllegalArgumentException.class, () -> model.setWeightsByName(byName));
        assertSameValues(before.get(0), model.getWeights().get(0), 0, "a rejected map changes no weight");

        IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
                () -> model.setWeights(w.subList(0, 3)));
        assertTrue(count.getMessage().contains("4 weights") && count.getMessage().contains("3 were given"),
                count.getMessage());
    }

    @Test
    void saveAndLoadWeightsIntoAFreshModelWithTheSameNames() throws IOException {
        // explicit names everywhere, so both models name their weights the same
        Supplier<Model> named = () -> {
            SymbolicTensor in = Input.named("features", 5);
            SymbolicTensor h = new Dense(8, Activation.TANH, true, dev.brisk.nn.Initializer.glorotUniform(),
                    dev.brisk.nn.Initializer.zeros(), null, "hidden").apply(in);
            h = new BatchNormalization(0.9f, 1e-3f, "bn").apply(h);
            SymbolicTensor out = new Dense(3, Activation.LINEAR, true, dev.brisk.nn.Initializer.glorotUniform(),
                    dev.brisk.nn.Initializer.zeros(), null, "logits").apply(h);
            return Model.of(in, out);
        };
        Model a = named.get();
        a.compile(Optimizers.adam(2e-2f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = TestData.classification(64, 5, 10);
        a.fit(xy[0], xy[1], Fit.epochs(2).batchSize(16).verbose(0));
        Path file = tmp.resolve("w.brisk");
        a.saveWeights(file);
        assertEquals(List.of(file), listDir(tmp), "no temporary files are left behind");

        Model b = named.get();
        Tensor pa = a.predict(xy[0]).copy();
        assertTrue(TestData.maxAbsDiff(pa, b.predict(xy[0])) > 1e-3, "a fresh model predicts differently");
        b.loadWeights(file);
        assertSameValues(pa, b.predict(xy[0]), 0, "predictions after loadWeights");
        // the moving statistics (non-trainable) travel too
        assertSameValues(((BatchNormalization) a.layer("bn")).movingMean().value(),
                ((BatchNormalization) b.layer("bn")).movingMean().value(), 0, "moving mean");
    }

    @Test
    void saveAndLoadWeightsIntoAFreshModelWithDefaultNames() throws IOException {
        Sequential a = smallMlp();
        Path file = tmp.resolve("w.brisk");
        a.saveWeights(file);
        Sequential b = smallMlp();
        b.loadWeights(file);
        Tensor x = TestData.gaussian(1, 10, 5);
        assertSameValues(a.predict(x), b.predict(x), 0, "predictions");
    }

    @Test
    void loadingIntoAnotherArchitectureIsAnIoExceptionNamingFileAndWeight() throws IOException {
        Sequential a = smallMlp();
        Path file = tmp.resolve("w.brisk");
        a.saveWeights(file);
        Sequential b = Sequential.of(Layers.input(5), Layers.dense(9, Activation.TANH), Layers.dense(3));
        IOException e = assertThrows(IOException.class, () -> b.loadWeights(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(b.layers().get(1).name() + "/kernel"), e.getMessage());
        assertTrue(e.getMessage().contains("(5, 8)") && e.getMessage().contains("(5, 9)"), e.getMessage());
    }

    @Test
    void truncatedWeightsFileIsAnIoExceptionNamingTheFile() throws IOException {
        Sequential a = smallMlp();
        Path file = tmp.resolve("w.brisk");
        a.saveWeights(file);
        byte[] full = Files.readAllBytes(file);
        for (int cut : new int[] {0, 5, 12, full.length / 2, full.length - 1}) {
            Path t = tmp.resolve("cut" + cut + ".brisk");
            Files.write(t, java.util.Arrays.copyOf(full, cut));
            IOException e = assertThrows(IOException.class, () -> a.loadWeights(t), "cut at " + cut);
            assertTrue(e.getMessage().contains(t.toString()), e.getMessage());
        }
        Path t = tmp.resolve("half.brisk");
        Files.write(t, java.util.Arrays.copyOf(full, full.length / 2));
        IOException e = assertThrows(IOException.class, () -> a.loadWeights(t));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        // a failed load leaves the weights as they were
        Tensor x = TestData.gaussian(2, 4, 5);
        Tensor before = a.predict(x).copy();
        assertThrows(IOException.class, () -> a.loadWeights(t));
        assertSameValues(before, a.predict(x), 0, "predictions after a failed load");
    }

    @Test
    void garbageWeightsFileIsAnIoExceptionNamingTheFile() throws IOException {
        Sequential a = smallMlp();
        Path garbage = tmp.resolve("garbage.bin");
        byte[] bytes = new byte[300];
        new SplittableRandom(3).nextBytes(bytes);
        Files.write(garbage, bytes);
        IOException e = assertThrows(IOException.class, () -> a.loadWeights(garbage));
        assertTrue(e.getMessage().contains(garbage.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("not a Brisk weights file"), e.getMessage());

        Path text = tmp.resolve("text.txt");
        Files.writeString(text, "hello, I am not a weights file at all\n");
        IOException e2 = assertThrows(IOException.class, () -> a.loadWeights(text));
        assertTrue(e2.getMessage().contains(text.toString()), e2.getMessage());

        Path missing = tmp.resolve("missing.brisk");
        IOException e3 = assertThrows(IOException.class, () -> a.loadWeights(missing));
        assertTrue(e3.getMessage().contains(missing.toString()), e3.getMessage());
    }

    @Test
    void weightsFileWithCorruptDimensionsIsAnIoExceptionNotACrash() throws IOException {
        Sequential a = smallMlp();
        Path file = tmp.resolve("w.brisk");
        a.saveWeights(file);
        byte[] full = Files.readAllBytes(file);
        // layout: magic (8) count (4) then UTF name (2 + len), rank (4), dims...
        int nameLen = ((full[12] & 0xff) << 8) | (full[13] & 0xff);
        int firstDim = 12 + 2 + nameLen + 4;
        for (int value : new int[] {-7, 0x7fffffff, 1 << 20}) {
            byte[] bad = full.clone();
            bad[firstDim] = (byte) (value >>> 24);
            bad[firstDim + 1] = (byte) (value >>> 16);
            bad[firstDim + 2] = (byte) (value >>> 8);
            bad[firstDim + 3] = (byte) value;
            Path t = tmp.resolve("dim" + value + ".brisk");
            Files.write(t, bad);
            IOException e = assertThrows(IOException.class, () -> a.loadWeights(t), "first dim " + value);
            assertTrue(e.getMessage().contains(t.toString()), e.getMessage());
        }
    }

    private static List<Path> listDir(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    // ---- metric names, evaluate ----

    @Test
    void historyUsesKerasMetricNamesAndEvaluateMatchesLastValidation() {
        Sequential model = smallMlp();
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        Tensor[] train = TestData.classification(96, 5, 11);
        Tensor[] val = TestData.classification(50, 5, 12);
        History h = model.fit(train[0], train[1],
                Fit.epochs(3).batchSize(16).validation(val[0], val[1]).verbose(0));
        assertEquals(List.of("loss", "accuracy", "val_loss", "val_accuracy", "cpu_util", "input_wait"),
                List.copyOf(h.asMap().keySet()));
        assertEquals(List.of(0, 1, 2), h.epochs());
        for (List<Double> series : h.asMap().values()) {
            assertEquals(3, series.size());
        }
        Map<String, Double> eval = model.evaluate(val[0], val[1], 16);
        assertEquals(List.of("loss", "accuracy"), List.copyOf(eval.keySet()));
        assertEquals(h.last("val_loss"), eval.get("loss"), 1e-6);
        assertEquals(h.last("val_accuracy"), eval.get("accuracy"), 1e-12);
        // another batch size: same numbers up to float rounding of the per-batch means
        Map<String, Double> eval7 = model.evaluate(val[0], val[1], 7);
        assertEquals(eval.get("loss"), eval7.get("loss"), 1e-5);
        assertEquals(eval.get("accuracy"), eval7.get("accuracy"), 1e-12);
        // accuracy is a fraction of 50 samples
        double correct = eval.get("accuracy") * 50;
        assertEquals(Math.rint(correct), correct, 1e-9);
        // the value matches a host-side computation
        Tensor p = model.predict(val[0]);
        int right = 0;
        double ce = 0;
        for (int i = 0; i < 50; i++) {
            int arg = 0;
            for (int c = 1; c < 3; c++) {
                if (p.at(i, c) > p.at(i, arg)) {
                    arg = c;
                }
            }
            right += arg == (int) val[1].get(i) ? 1 : 0;
            double max = Math.max(p.at(i, 0), Math.max(p.at(i, 1), p.at(i, 2)));
            double z = Math.exp(p.at(i, 0) - max) + Math.exp(p.at(i, 1) - max) + Math.exp(p.at(i, 2) - max);
            ce -= p.at(i, (int) val[1].get(i)) - max - Math.log(z);
        }
        assertEquals(right / 50.0, eval.get("accuracy"), 1e-12);
        assertEquals(ce / 50, eval.get("loss"), 1e-4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.get("val_acc"));
        assertTrue(e.getMessage().contains("val_acc") && e.getMessage().contains("val_accuracy"), e.getMessage());
    }

    // ---- optimisers ----

    private static double trainAndReport(Optimizer opt, int epochs, String what) {
        RandomSeed.set(77);
        Sequential model = Sequential.of(Layers.input(6), Layers.dense(16, Activation.TANH), Layers.dense(1));
        model.compile(opt, Losses.meanSquaredError());
        Tensor[] xy = TestData.regression(128, 6, 21);
        double before = model.evaluate(xy[0], xy[1], 128).get("loss");
        model.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(16).seed(4).verbose(0));
        double after = model.evaluate(xy[0], xy[1], 128).get("loss");
        assertEquals((long) epochs * 8, opt.iterations(), what + ": one iteration per step");
        assertTrue(after < 0.3 * before, what + ": loss " + before + " -> " + after);
        assertTrue(Double.isFinite(after), what);
        return after;
    }

    /** The host-side Keras 3 update of one scalar weight with state {@code s}, for step {@code t} (1-based). */
    private interface ScalarRule {
        double step(double w, double g, double[] s, int t);
    }

    /**
     * Three steps of a 1-in 1-out Dense (kernel 0.5, bias 0.25) on x = 1, y = 0 with MSE: the loss is
     * (k + b)^2 and both gradients are 2 (k + b). Brisk's weights must follow {@code rule} applied on the host.
     */
    private static void assertFollows(Optimizer opt, ScalarRule rule, String what) {
        Sequential model = Sequential.of(Layers.input(1), Layers.dense(1));
        model.setWeights(List.of(Tensor.of(new float[] {0.5f}, 1, 1), Tensor.of(new float[] {0.25f}, 1)));
        model.compile(opt, Losses.meanSquaredError());
        double k = 0.5;
        double b = 0.25;
        double[] sk = new double[2];
        double[] sb = new double[2];
        for (int t = 1; t <= 3; t++) {
            model.fit(Tensor.of(new float[] {1}, 1, 1), Tensor.of(new float[] {0}, 1, 1),
                    Fit.epochs(1).batchSize(1).verbose(0));
            double g = 2 * (k + b);
            k = rule.step(k, g, sk, t);
            b = rule.step(b, g, sb, t);
            List<Tensor> w = model.getWeights();
            assertEquals(k, w.get(0).get(0), 1e-5 + 1e-5 * Math.abs(k), what + ": kernel after step " + t);
            assertEquals(b, w.get(1).get(0), 1e-5 + 1e-5 * Math.abs(b), what + ": bias after step " + t);
        }
    }

    @Test
    void optimizerUpdatesFollowKerasFormulas() {
        double lr = 0.1;
        assertFollows(Optimizers.sgd((float) lr), (w, g, s, t) -> w - lr * g, "sgd");
        assertFollows(Optimizers.sgd((float) lr, 0.9f, false), (w, g, s, t) -> {
            s[0] = 0.9 * s[0] - lr * g;
            return w + s[0];
        }, "sgd momentum");
        assertFollows(Optimizers.sgd((float) lr, 0.9f, true), (w, g, s, t) -> {
            s[0] = 0.9 * s[0] - lr * g;
            return w + 0.9 * s[0] - lr * g;
        }, "sgd nesterov");
        assertFollows(Optimizers.rmsprop((float) lr), (w, g, s, t) -> {
            s[0] = 0.9 * s[0] + 0.1 * g * g;
            return w - lr * g / Math.sqrt(s[0] + 1e-7);
        }, "rmsprop");
        ScalarRule adam = (w, g, s, t) -> {
            s[0] += (g - s[0]) * 0.1;
            s[1] += (g * g - s[1]) * 0.001;
            double alpha = lr * Math.sqrt(1 - Math.pow(0.999, t)) / (1 - Math.pow(0.9, t));
            return w - alpha * s[0] / (Math.sqrt(s[1]) + 1e-7);
        };
        assertFollows(Optimizers.adam((float) lr), adam, "adam");
        assertFollows(Optimizers.adamW((float) lr, 0.2f),
                (w, g, s, t) -> adam.step(w - w * 0.2 * lr, g, s, t), "adamw");
        // clipnorm on a scalar gradient: g * min(1, c / |g|)
        assertFollows(Optimizers.sgd((float) lr).clipNorm(0.3f),
                (w, g, s, t) -> w - lr * g * Math.min(1, 0.3 / Math.abs(g)), "sgd clipnorm");
        // global clipnorm over both gradients: norm sqrt(2) |g|
        assertFollows(Optimizers.sgd((float) lr).globalClipNorm(0.3f),
                (w, g, s, t) -> w - lr * g * Math.min(1, 0.3 / (Math.sqrt(2) * Math.abs(g))), "sgd global clip");
        // a schedule: step t uses lr(t - 1)
        LearningRateSchedule sched = LearningRateSchedule.exponentialDecay(0.1f, 1, 0.5f, false);
        assertFollows(Optimizers.sgd(sched, 0f, false), (w, g, s, t) -> w - 0.1 * Math.pow(0.5, t - 1) * g,
                "sgd exponential decay");
    }

    @Test
    void sgdWithNesterovMomentumTrains() {
        trainAndReport(Optimizers.sgd(0.01f, 0.9f, true), 6, "sgd nesterov");
    }

    @Test
    void rmspropTrains() {
        trainAndReport(Optimizers.rmsprop(5e-3f), 6, "rmsprop");
    }

    @Test
    void adamWTrainsAndDecaysWeights() {
        trainAndReport(Optimizers.adamW(1e-2f, 0.004f), 6, "adamw");
        assertEquals("adamw", Optimizers.adamW(1e-2f).name());
        assertEquals("adam", Optimizers.adam().name());
        // with zero gradients (lr=0 except for the decay) AdamW shrinks weights by lr * wd per step
        Sequential model = Sequential.of(Layers.input(2), Layers.dense(1));
        model.compile(Optimizers.adamW(0.1f, 0.5f), Losses.meanSquaredError());
        Tensor x = Tensor.zeros(4, 2);
        Tensor y = Tensor.zeros(4, 1);
        float k0 = model.getWeights().get(0).get(0);
        model.fit(x, y, Fit.epochs(1).batchSize(4).verbose(0));
        float k1 = model.getWeights().get(0).get(0);
        // Keras AdamW: w -= lr * wd * w (gradient of the kernel is 0 here since x == 0)
        assertEquals(k0 * (1 - 0.1f * 0.5f), k1, 1e-6, "decoupled weight decay");
    }

    @Test
    void exponentialDecayScheduleTrainsAndDrivesTheLearningRate() {
        LearningRateSchedule sched = LearningRateSchedule.exponentialDecay(2e-2f, 10, 0.5f, false);
        Optimizer opt = Optimizers.adam(sched);
        trainAndReport(opt, 6, "adam + exponential decay");
        assertEquals(48, opt.iterations());
        assertEquals(2e-2 * Math.pow(0.5, 4.8), opt.learningRate(), 1e-8);
        assertTrue(opt.hasSchedule());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> opt.setLearningRate(1e-3f));
        assertTrue(e.getMessage().contains("schedule"), e.getMessage());
        LearningRateSchedule stair = LearningRateSchedule.exponentialDecay(1f, 10, 0.5f, true);
        assertEquals(1f, stair.at(9));
        assertEquals(0.5f, stair.at(10));
        assertEquals(0.25f, stair.at(29));
    }

    @Test
    void cosineDecayScheduleTrains() {
        LearningRateSchedule sched = LearningRateSchedule.cosineDecay(0.05f, 40, 0.1f);
        assertEquals(0.05f, sched.at(0), 1e-9);
        assertEquals(0.05f * (0.9f * 0.5f + 0.1f), sched.at(20), 1e-7);
        assertEquals(0.005f, sched.at(40), 1e-9);
        assertEquals(0.005f, sched.at(1000), 1e-9);
        Optimizer opt = Optimizers.sgd(sched, 0.9f, false);
        trainAndReport(opt, 6, "sgd + cosine decay");
        assertEquals(0.005f, opt.learningRate(), 1e-9);
    }

    @Test
    void clipNormAndGlobalClipNormStillTrain() {
        trainAndReport(Optimizers.adam(1e-2f).clipNorm(1f), 6, "adam clipnorm");
        trainAndReport(Optimizers.sgd(0.02f, 0.9f, false).globalClipNorm(1f), 6, "sgd global clipnorm");
    }

    /** One SGD step with learning rate 1 on a loss with huge gradients. */
    private static List<Tensor[]> oneStep(Optimizer opt) {
        RandomSeed.set(5);
        Sequential model = Sequential.of(Layers.input(3), Layers.dense(4, Activation.RELU), Layers.dense(2));
        model.compile(opt, Losses.meanSquaredError());
        Tensor x = TestData.gaussian(3, 8, 3);
        Tensor y = Tensor.of(new float[16], 8, 2);
        for (int i = 0; i < 16; i++) {
            y.set(i, 100f);
        }
        List<Tensor> before = model.getWeights();
        model.fit(x, y, Fit.epochs(1).batchSize(8).shuffle(false).verbose(0));
        List<Tensor> after = model.getWeights();
        List<Tensor[]> pairs = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            pairs.add(new Tensor[] {before.get(i), after.get(i)});
        }
        return pairs;
    }

    @Test
    void clipNormBoundsEachUpdate() {
        List<Tensor[]> unclipped = oneStep(Optimizers.sgd(1f));
        double biggest = unclipped.stream().mapToDouble(p -> TestData.l2Diff(p[0], p[1])).max().orElseThrow();
        assertTrue(biggest > 1, "the unclipped step is large: " + biggest);
        List<Tensor[]> clipped = oneStep(Optimizers.sgd(1f).clipNorm(0.01f));
        for (Tensor[] p : clipped) {
            double d = TestData.l2Diff(p[0], p[1]);
            assertTrue(d <= 0.01 * 1.001, "each variable moves by at most 0.01: " + d);
        }
        // the variables with a non-zero gradient move by exactly the clip norm
        double dOut = TestData.l2Diff(clipped.get(3)[0], clipped.get(3)[1]);
        assertEquals(0.01, dOut, 1e-4, "output bias update norm");
    }

    @Test
    void globalClipNormBoundsTheWholeUpdate() {
        List<Tensor[]> clipped = oneStep(Optimizers.sgd(1f).globalClipNorm(0.01f));
        double total = 0;
        for (Tensor[] p : clipped) {
            double d = TestData.l2Diff(p[0], p[1]);
            total += d * d;
        }
        assertEquals(0.01, Math.sqrt(total), 1e-4, "global update norm");
    }

    // ---- regularisation ----

    @Test
    void l2RegularizerAddsItsPenaltyToTheReportedLoss() {
        RandomSeed.set(9);
        Sequential plain = Sequential.of(Layers.input(5), Layers.dense(6, Activation.TANH), Layers.dense(3));
        Sequential reg = Sequential.of(Layers.input(5),
                Layers.dense(6, Activation.TANH, Regularizer.l2(0.05f)), Layers.dense(3));
        reg.setWeights(plain.getWeights());
        plain.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        reg.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = TestData.classification(32, 5, 4);
        double penalty = 0.05 * TestData.sumSquares(reg.getWeights().get(0));
        assertTrue(penalty > 0.05, "a visible penalty: " + penalty);

        double lp = plain.evaluate(xy[0], xy[1], 32).get("loss");
        double lr = reg.evaluate(xy[0], xy[1], 32).get("loss");
        assertEquals(penalty, lr - lp, 1e-4, "evaluate includes the penalty");

        // step 0 of fit reports the loss before the update: the same difference
        History hp = plain.fit(xy[0], xy[1], Fit.epochs(1).batchSize(32).verbose(0));
        History hr = reg.fit(xy[0], xy[1], Fit.epochs(1).batchSize(32).verbose(0));
        assertEquals(lp, hp.last("loss"), 1e-5);
        assertEquals(penalty, hr.last("loss") - hp.last("loss"), 1e-4, "fit reports the penalty");
        // and the penalty's gradient shrinks the regularised kernel more than the plain one
        assertTrue(TestData.sumSquares(reg.getWeights().get(0)) < TestData.sumSquares(plain.getWeights().get(0)));
    }

    // ---- dropout and batch normalisation ----

    @Test
    void dropoutIsIdentityInInferenceAndRandomInTraining() {
        RandomSeed.set(3);
        Sequential withDrop = Sequential.of(Layers.input(6), Layers.dense(32, Activation.RELU),
                Layers.dropout(0.5f), Layers.dense(3));
        Sequential without = Sequential.of(Layers.input(6), Layers.dense(32, Activation.RELU), Layers.dense(3));
        without.setWeights(withDrop.getWeights());
        Tensor[] xy = TestData.classification(64, 6, 2);
        Tensor p1 = withDrop.predict(xy[0]).copy();
        Tensor p2 = withDrop.predict(xy[0]).copy();
        assertSameValues(p1, p2, 0, "two predictions");
        assertSameValues(without.predict(xy[0]), p1, 1e-6, "prediction equals the model without dropout");

        // learning rate 0: weights do not move, so any difference between the training loss and evaluate is dropout
        withDrop.compile(Optimizers.sgd(0f), Losses.sparseCategoricalCrossentropy(true));
        without.compile(Optimizers.sgd(0f), Losses.sparseCategoricalCrossentropy(true));
        double evalLoss = withDrop.evaluate(xy[0], xy[1], 64).get("loss");
        assertEquals(without.evaluate(xy[0], xy[1], 64).get("loss"), evalLoss, 1e-5);
        double t1 = withDrop.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0)).last("loss");
        double t2 = withDrop.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0)).last("loss");
        double plainTrain = without.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0)).last("loss");
        assertEquals(evalLoss, plainTrain, 1e-5, "without dropout, training and evaluation agree");
        assertTrue(Math.abs(t1 - evalLoss) > 1e-4, "training applies dropout: " + t1 + " vs " + evalLoss);
        assertTrue(Math.abs(t1 - t2) > 1e-6, "each step draws a new mask: " + t1 + " vs " + t2);
        assertSameValues(p1, withDrop.predict(xy[0]), 0, "weights unchanged with lr 0");
    }

    @Test
    void batchNormalizationMovingStatisticsFollowKerasAndAreUsedForPrediction() {
        BatchNormalization bn = Layers.batchNormalization();
        Sequential model = Sequential.of(Layers.input(2), bn);
        // learning rate 0 so only the moving statistics change
        model.compile(Optimizers.sgd(0f), Losses.meanSquaredError());
        // every batch of 4 has mean (5, -3) and biased variance (4, 0.25)
        int n = 32;
        float[] x = new float[n * 2];
        for (int i = 0; i < n; i++) {
            float sign = i % 2 == 0 ? 1 : -1;
            x[2 * i] = 5 + 2 * sign;
            x[2 * i + 1] = -3 + 0.5f * sign;
        }
        Tensor xt = Tensor.of(x, n, 2);
        Tensor yt = Tensor.zeros(n, 2);
        assertSameValues(Tensor.of(new float[] {0, 0}, 2), bn.movingMean().value(), 0, "initial moving mean");
        assertSameValues(Tensor.of(new float[] {1, 1}, 2), bn.movingVariance().value(), 0, "initial variance");
        model.fit(xt, yt, Fit.epochs(1).batchSize(4).shuffle(false).verbose(0));
        int steps = n / 4;
        double keep = Math.pow(0.99, steps);
        assertEquals(5 * (1 - keep), bn.movingMean().value().get(0), 1e-4);
        assertEquals(-3 * (1 - keep), bn.movingMean().value().get(1), 1e-4);
        assertEquals(keep + 4 * (1 - keep), bn.movingVariance().value().get(0), 1e-4);
        assertEquals(keep + 0.25 * (1 - keep), bn.movingVariance().value().get(1), 1e-4);

        // predict uses the moving statistics (not the batch's): (x - mm) / sqrt(mv + 1e-3) * gamma + beta
        Tensor probe = Tensor.of(new float[] {5, -3, 7, -2.5f, 0, 0}, 3, 2);
        Tensor p = model.predict(probe);
        for (int i = 0; i < 3; i++) {
            for (int c = 0; c < 2; c++) {
                double expected = (probe.at(i, c) - bn.movingMean().value().get(c))
                        / Math.sqrt(bn.movingVariance().value().get(c) + 1e-3);
                assertEquals(expected, p.at(i, c), 1e-4, "row " + i + " channel " + c);
            }
        }
        // and prediction does not update them
        Tensor mm = bn.movingMean().value().copy();
        model.predict(probe);
        model.evaluate(xt, yt, 4);
        assertSameValues(mm, bn.movingMean().value(), 0, "moving mean after predict/evaluate");
        // non-trainable: not among trainable variables, but saved with the weights
        List<Variable> trainable = model.trainableVariables();
        assertEquals(2, trainable.size());
        assertEquals(4, model.getWeights().size());
    }
}
