package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.callbacks.TerminateOnNaN;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.Pipeline;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Mistakes a user makes, and the errors that must name them. */
class BadInputTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(42);
    }

    private static String message(Class<? extends Throwable> type, Executable e) {
        Throwable t = assertThrows(type, e);
        assertNotNull(t.getMessage());
        return t.getMessage();
    }

    private static void assertContains(String msg, String... parts) {
        for (String p : parts) {
            assertTrue(msg.contains(p), "expected '" + p + "' in: " + msg);
        }
    }

    private static Sequential classifier(int features, int classes) {
        Sequential m = Sequential.of(Layers.input(features), Layers.dense(8, Activation.RELU), Layers.dense(classes));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    // ---- shapes ----

    @Test
    void denseFedRankThreeSamplesAppliesOverTheLastAxisAndALossOfTheWrongRankIsNamed() {
        // As in Keras, Dense maps (None, 28, 28) to (None, 28, 10): no error at the layer.
        Dense fn = Layers.dense(3);
        assertEquals(dev.brisk.tensor.Shape.of(28, 3), fn.apply(Input.of(28, 28)).shape());

        // A model built lazily from such data then fails at the loss, which names the shapes.
        Dense lazy = Layers.dense(10);
        Sequential m = Sequential.of(lazy);
        m.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        String msg2 = message(RuntimeException.class,
                () -> m.fit(Tensor.zeros(4, 28, 28), Tensor.zeros(4), Fit.epochs(1).verbose(0)));
        assertContains(msg2, "sparse_categorical_crossentropy", "'" + lazy.name() + "'", "(None, 28, 10)", "(4,)");
    }

    @Test
    void conv2dFedFlatVectorsNamesLayerAndShape() {
        Conv2D conv = Layers.conv2d(32, 3, Activation.RELU);
        String msg = message(IllegalArgumentException.class, () -> Sequential.of(Layers.input(784), conv));
        assertContains(msg, "'" + conv.name() + "'", "Conv2D", "rank 4", "(None, 784)");

        Conv2D tooBig = Layers.conv2d(4, 5, Activation.RELU);
        String msg2 = message(IllegalArgumentException.class, () -> Sequential.of(Layers.input(3, 3, 1), tooBig));
        assertContains(msg2, "'" + tooBig.name() + "'", "5x5", "(None, 3, 3, 1)");
    }

    @Test
    void layerReusedOnAnotherShapeNamesBothShapes() {
        Dense d = Layers.dense(4);
        d.apply(Input.of(3));
        String msg = message(IllegalArgumentException.class, () -> d.apply(Input.of(5)));
        assertContains(msg, "'" + d.name() + "'", "(None, 3)", "(None, 5)");
    }

    @Test
    void addAndConcatenateNameMismatchedShapes() {
        String add = message(IllegalArgumentException.class,
                () -> Layers.add().apply(Input.of(3), Input.of(4)));
        assertContains(add, "Add", "(None, 3)", "(None, 4)", "axis 1 is 3 against 4");
        String mul = message(IllegalArgumentException.class,
                () -> Layers.multiply().apply(Input.of(5, 3), Input.of(2, 3)));
        assertContains(mul, "Multiply", "(None, 5, 3)", "(None, 2, 3)", "axis 1");
        String cat = message(IllegalArgumentException.class,
                () -> Layers.concatenate().apply(Input.of(2, 3), Input.of(4, 3)));
        assertContains(cat, "Concatenate", "(None, 2, 3)", "(None, 4, 3)");
    }

    @Test
    void dataShapeNotMatchingTheModelInputNamesInputAndBothShapes() {
        Sequential m = classifier(784, 10);
        String input = m.inputs().get(0).layer().name();
        Tensor images = Tensor.zeros(4, 28, 28);
        Tensor labels = Tensor.zeros(4);
        String fit = message(IllegalArgumentException.class,
                () -> m.fit(images, labels, Fit.epochs(1).verbose(0)));
        assertContains(fit, "'" + input + "'", "(None, 784)", "(None, 28, 28)");
        String predict = message(IllegalArgumentException.class, () -> m.predict(images));
        assertContains(predict, "'" + input + "'", "(None, 784)", "(None, 28, 28)");
        String eval = message(IllegalArgumentException.class, () -> m.evaluate(images, labels, 4));
        assertContains(eval, "'" + input + "'", "(None, 784)", "(None, 28, 28)");
        // a Dataset of images for a flat model
        InMemoryDataset ds = new InMemoryDataset(Tensor.zeros(4, 28, 28, 1), labels);
        String viaDataset = message(IllegalArgumentException.class,
                () -> m.fit(ds, Fit.epochs(1).verbose(0)));
        assertContains(viaDataset, "'" + input + "'", "(None, 784)", "(None, 28, 28, 1)");
        // validation data of the wrong shape is caught too
        Tensor[] ok = TestData.classification(8, 784, 1);
        String val = message(IllegalArgumentException.class,
                () -> m.fit(ok[0], ok[1], Fit.epochs(1).verbose(0).validation(Tensor.zeros(4, 783), labels)));
        assertContains(val, "(None, 784)", "(None, 783)");
    }

    @Test
    void wrongNumberOfInputsForAFunctionalModel() {
        SymbolicTensor a = Input.of(2);
        SymbolicTensor b = Input.of(2);
        Model m = Model.of(List.of(a, b), List.of(Layers.dense(1).apply(Layers.add().apply(a, b))));
        String msg = message(IllegalArgumentException.class, () -> m.predict(Tensor.zeros(3, 2)));
        assertContains(msg, "2 input(s)", "got 1");
    }

    // ---- labels ----

    @Test
    void labelOutOfRangeNamesValueIndexAndClassCount() {
        Sequential m = classifier(4, 10);
        float[] y = {0, 1, 2, 3, 4, 10, 6, 7};
        String msg = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(8, 4), Tensor.of(y, 8), Fit.epochs(1).verbose(0)));
        assertContains(msg, "label 10", "index 5", "10 classes", "[0, 10)");
        assertEquals(0, m.optimizer().iterations(), "no step ran");

        float[] neg = {0, 1, -1, 3};
        String msg2 = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(4, 4), Tensor.of(neg, 4), Fit.epochs(1).verbose(0)));
        assertContains(msg2, "label -1", "index 2", "10 classes");

        // evaluate checks too
        String msg3 = message(IllegalArgumentException.class,
                () -> m.evaluate(Tensor.zeros(8, 4), Tensor.of(y, 8), 4));
        assertContains(msg3, "label 10", "index 5");

        // and validation data
        String msg4 = message(IllegalArgumentException.class, () -> m.fit(Tensor.zeros(4, 4), Tensor.zeros(4),
                Fit.epochs(1).verbose(0).validation(Tensor.zeros(8, 4), Tensor.of(y, 8))));
        assertContains(msg4, "label 10", "index 5");
    }

    @Test
    void nonIntegerLabelIsCalledThat() {
        Sequential m = classifier(4, 10);
        float[] y = {0, 1, 2, 2.5f};
        String msg = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(4, 4), Tensor.of(y, 4), Fit.epochs(1).verbose(0)));
        assertContains(msg, "2.5", "index 3", "integer");
        float[] nan = {0, Float.NaN, 2, 2};
        String msg2 = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(4, 4), Tensor.of(nan, 4), Fit.epochs(1).verbose(0)));
        assertContains(msg2, "NaN", "index 1");
    }

    @Test
    void oneHotTargetsForASparseLossAreNamedAsSuch() {
        Sequential m = classifier(4, 3);
        Tensor oneHot = Tensor.zeros(8, 3);
        for (int i = 0; i < 8; i++) {
            oneHot.set(i * 3 + i % 3, 1);
        }
        String msg = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(8, 4), oneHot, Fit.epochs(1).verbose(0)));
        assertContains(msg, "sparse_categorical_crossentropy", "(8, 3)", "(None, 3)", "categorical_crossentropy");
        // (N, 1) class indexes are fine, as in Keras
        History h = m.fit(Tensor.zeros(8, 4), Tensor.zeros(8, 1), Fit.epochs(1).verbose(0));
        assertEquals(1.0, h.last("accuracy"), 1e-12);
    }

    @Test
    void regressionTargetsOfTheWrongWidthNameBothShapes() {
        Sequential m = Sequential.of(Layers.input(4), Layers.dense(3));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        String msg = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(8, 4), Tensor.zeros(8, 2), Fit.epochs(1).verbose(0)));
        assertContains(msg, "(8, 2)", "(8, 3)");
    }

    @Test
    void mismatchedSampleCounts() {
        Sequential m = classifier(4, 3);
        String msg = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(10, 4), Tensor.zeros(9), Fit.epochs(1).verbose(0)));
        assertContains(msg, "same number of samples", "10", "(9,)");
        String val = message(IllegalArgumentException.class, () -> m.fit(Tensor.zeros(10, 4), Tensor.zeros(10),
                Fit.epochs(1).verbose(0).validation(Tensor.zeros(5, 4), Tensor.zeros(6))));
        assertContains(val, "same number of samples", "5", "(6,)");
        String ds = message(IllegalArgumentException.class,
                () -> new InMemoryDataset(Tensor.zeros(10, 4), Tensor.zeros(9)));
        assertContains(ds, "10 vs 9");
    }

    @Test
    void aFailedLazyBuildDoesNotPoisonTheModel() {
        // (Dense takes any rank now, as in Keras; a convolution fed flat vectors fails the lazy build instead.)
        Sequential m = Sequential.of(Layers.conv2d(2, 3, Activation.RELU), Layers.flatten(), Layers.dense(2));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        String msg = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(4, 784), Tensor.zeros(4, 2), Fit.epochs(1).verbose(0)));
        assertContains(msg, "Conv2D expects input of rank 4", "(None, 784)");
        assertTrue(!m.isBuilt(), "still unbuilt after the failed build");
        History h = m.fit(Tensor.zeros(4, 6, 6, 1), Tensor.zeros(4, 2), Fit.epochs(1).verbose(0));
        assertEquals(1, h.epochs().size());
        assertEquals(Shape.of(6, 6, 1), m.inputs().get(0).shape());
    }

    @Test
    void emptyDataIsRefusedForFitAndEvaluateAndPredictsNothing() {
        Sequential m = classifier(4, 3);
        String fit = message(IllegalArgumentException.class,
                () -> m.fit(Tensor.zeros(0, 4), Tensor.zeros(0), Fit.epochs(1).verbose(0)));
        assertContains(fit, "fit", "empty");
        String eval = message(IllegalArgumentException.class, () -> m.evaluate(Tensor.zeros(0, 4), Tensor.zeros(0), 8));
        assertContains(eval, "evaluate", "empty");
        Tensor p = m.predict(Tensor.zeros(0, 4));
        assertEquals(Shape.of(0, 3), p.shape());
    }

    // ---- compile ----

    @Test
    void predictWorksWithoutCompileButFitAndEvaluateNeedIt() {
        Sequential m = Sequential.of(Layers.input(4), Layers.dense(3));
        Tensor x = TestData.gaussian(1, 5, 4);
        Tensor p = m.predict(x);
        assertEquals(Shape.of(5, 3), p.shape());
        // the prediction is x @ kernel (bias starts at zero)
        Tensor k = m.getWeights().get(0);
        for (int i = 0; i < 5; i++) {
            for (int c = 0; c < 3; c++) {
                double s = 0;
                for (int j = 0; j < 4; j++) {
                    s += x.at(i, j) * k.at(j, c);
                }
                assertEquals(s, p.at(i, c), 1e-5);
            }
        }
        String fit = message(IllegalStateException.class,
                () -> m.fit(x, Tensor.zeros(5), Fit.epochs(1).verbose(0)));
        assertContains(fit, "'" + m.name() + "'", "must be compiled");
        String eval = message(IllegalStateException.class, () -> m.evaluate(x, Tensor.zeros(5), 5));
        assertContains(eval, "must be compiled");
    }

    @Test
    void lossCountMustMatchOutputs() {
        SymbolicTensor a = Input.of(2);
        Model m = Model.of(List.of(a), List.of(Layers.dense(1).apply(a), Layers.dense(1).apply(a)));
        m.compile(Optimizers.sgd(0.1f),
                List.of(Losses.meanSquaredError(), Losses.meanSquaredError(), Losses.meanSquaredError()));
        String msg = message(IllegalStateException.class, () -> m.fit(new Tensor[] {Tensor.zeros(2, 2)},
                new Tensor[] {Tensor.zeros(2, 1), Tensor.zeros(2, 1)}, Fit.epochs(1).verbose(0)));
        assertContains(msg, "2 outputs", "3 losses");
    }

    @Test
    void fitOptionsRejectNonsense() {
        assertContains(message(IllegalArgumentException.class, () -> Fit.epochs(0)), "epochs", "0");
        assertContains(message(IllegalArgumentException.class, () -> Fit.epochs(1).batchSize(0)), "batch size");
        assertContains(message(IllegalArgumentException.class, () -> Layers.dropout(1f)), "[0, 1)");
    }

    // ---- NaN ----

    @Test
    void nanInTheDataStopsTrainingAtThatStep() {
        Sequential m = Sequential.of(Layers.input(3), Layers.dense(4, Activation.TANH), Layers.dense(1));
        m.compile(Optimizers.sgd(0.01f), Losses.meanSquaredError());
        Tensor[] xy = TestData.regression(40, 3, 6);
        // sample 25 is in batch 3 (0-based 2) with batches of 10 and no shuffling
        xy[0].set(25 * 3 + 1, Float.NaN);
        // two clean epochs first (on the first 20 samples): no NaN, no stop
        Tensor cleanX = xy[0].slice(0, 20);
        Tensor cleanY = xy[1].slice(0, 20);
        TerminateOnNaN ton = new TerminateOnNaN();
        History clean = m.fit(cleanX, cleanY, Fit.epochs(2).batchSize(10).shuffle(false).verbose(0)
                .callbacks(ton));
        assertNull(ton.reason());
        assertEquals(2, clean.epochs().size());

        TerminateOnNaN ton2 = new TerminateOnNaN();
        long before = m.optimizer().iterations();
        History h = m.fit(xy[0], xy[1], Fit.epochs(5).batchSize(10).shuffle(false).verbose(0).callbacks(ton2));
        String reason = ton2.reason();
        assertNotNull(reason);
        assertContains(reason, "Epoch 1", "batch 3", "step 3");
        assertEquals(3, m.optimizer().iterations() - before, "training stopped right after the bad step");
        assertEquals(1, h.epochs().size(), "no further epochs: " + h);
        assertTrue(Double.isNaN(h.last("loss")), h.toString());
    }

    @Test
    void divergingTrainingWithHugeLearningRateIsTerminated() {
        Sequential m = Sequential.of(Layers.input(3), Layers.dense(8, Activation.RELU), Layers.dense(1));
        Optimizer sgd = Optimizers.sgd(1e4f);
        m.compile(sgd, Losses.meanSquaredError());
        Tensor[] xy = TestData.regression(64, 3, 8);
        TerminateOnNaN ton = new TerminateOnNaN();
        History h = m.fit(xy[0], xy[1], Fit.epochs(50).batchSize(8).verbose(0).callbacks(ton));
        String reason = ton.reason();
        assertNotNull(reason, "the loss must blow up: " + h);
        Matcher mm = Pattern.compile("Epoch (\\d+), batch (\\d+) \\(step (\\d+)\\)").matcher(reason);
        assertTrue(mm.find(), reason);
        int epoch = Integer.parseInt(mm.group(1));
        int batch = Integer.parseInt(mm.group(2));
        long step = Long.parseLong(mm.group(3));
        assertEquals((epoch - 1) * 8L + batch, step, reason);
        assertEquals(step, sgd.iterations(), "no step after the bad one");
        assertEquals(epoch, h.epochs().size(), "history stops at the epoch of the bad step");
        assertTrue(epoch < 50);
        double last = h.last("loss");
        assertTrue(Double.isNaN(last) || Double.isInfinite(last), "last loss " + last);
    }

    // ---- mistakes from a new user's first hour ----

    @Test
    void compileRefusesNullsAtOnce() {
        Sequential m = Sequential.of(Layers.input(3), Layers.dense(2));
        assertContains(message(IllegalArgumentException.class, () -> m.compile(null, Losses.meanSquaredError())),
                "optimizer");
        assertContains(message(IllegalArgumentException.class,
                () -> m.compile(Optimizers.sgd(0.1f), (dev.brisk.losses.Loss) null)), "loss");
    }

    @Test
    void validationDataOfTheWrongArityFailsBeforeTheFirstStepAndSaysItIsTheValidationData() {
        SymbolicTensor a = Input.of(2);
        SymbolicTensor b = Input.of(2);
        Model m = Model.of(List.of(a, b), List.of(Layers.dense(1).apply(Layers.concatenate().apply(a, b))));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        int[] steps = {0};
        dev.brisk.callbacks.Callback counter = new dev.brisk.callbacks.Callback() {
            @Override
            public void onTrainBatchEnd(int batch, java.util.Map<String, Double> logs) {
                steps[0]++;
            }
        };
        Tensor[] x = {Tensor.zeros(8, 2), Tensor.zeros(8, 2)};
        Tensor[] y = {Tensor.zeros(8, 1)};
        String msg = message(IllegalArgumentException.class, () -> m.fit(x, y,
                Fit.epochs(1).batchSize(4).verbose(0).validation(Tensor.zeros(4, 2), Tensor.zeros(4, 1))
                        .callbacks(counter)));
        assertContains(msg, "validation", "2 input(s)", "got 1");
        assertEquals(0, steps[0], "no step runs before the validation data is checked");
    }

    @Test
    void aSoftmaxOutputWithAFromLogitsLossIsWarnedAboutOnce() {
        Sequential m = Sequential.of(Layers.input(4), Layers.dense(3, Activation.SOFTMAX));
        m.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        String err = stderrOf(() -> {
            m.fit(Tensor.zeros(6, 4), Tensor.zeros(6), Fit.epochs(1).verbose(0));
            m.fit(Tensor.zeros(6, 4), Tensor.zeros(6), Fit.epochs(1).verbose(0));
        });
        assertContains(err, "fromLogits=true", "softmax", "'" + m.layers().get(m.layers().size() - 1).name() + "'");
        assertEquals(err.indexOf("warning"), err.lastIndexOf("warning"), "warned once: " + err);

        Sequential logits = Sequential.of(Layers.input(4), Layers.dense(3));
        logits.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        assertEquals("", stderrOf(() -> logits.fit(Tensor.zeros(6, 4), Tensor.zeros(6), Fit.epochs(1).verbose(0))));
    }

    @Test
    void aBatchSizeIsRefusedWhenFittingAPipelineThatMakesItsOwnBatches() {
        Sequential m = classifier(3, 2);
        Pipeline<dev.brisk.data.Batch> batches = Pipeline.fromArrays(Tensor.zeros(8, 3), Tensor.zeros(8)).batch(4);
        assertContains(message(IllegalArgumentException.class,
                () -> m.fit(batches, Fit.epochs(1).batchSize(64).verbose(0))), "batchSize(64)", "pipeline");
        m.fit(batches, Fit.epochs(1).verbose(0));
        // With validation arrays the batch size has something to batch, so it is accepted.
        m.fit(batches, Fit.epochs(1).batchSize(64).verbose(0).validation(Tensor.zeros(4, 3), Tensor.zeros(4)));
    }

    private static String stderrOf(Runnable r) {
        PrintStream old = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setErr(old);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
