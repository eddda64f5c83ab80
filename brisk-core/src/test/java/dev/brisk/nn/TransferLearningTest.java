package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Freezing layers and models ({@code setTrainable}), and loading a trained base by layer name. */
class TransferLearningTest {
    private static Dense dense(int units, Activation a, String name) {
        return new Dense(units, a, true, Initializer.glorotUniform(), Initializer.zeros(), null, name);
    }

    private static Model base(String head, int headUnits) {
        return Sequential.of(Layers.input(12), dense(10, Activation.RELU, "base_1"),
                new BatchNormalization(0.9f, 1e-3f, "base_bn"), dense(8, Activation.TANH, "base_2"),
                dense(headUnits, Activation.LINEAR, head));
    }

    private static void train(Model m, Tensor[] xy, boolean eager) {
        m.runEagerly(eager);
        m.fit(xy[0], xy[1], Fit.epochs(2).batchSize(16).seed(3).verbose(0));
    }

    private static void assertSameValues(Map<String, Tensor> a, Map<String, Tensor> b, String name) {
        assertArrayEquals(a.get(name).toArray(), b.get(name).toArray(), name);
    }

    @Test
    void frozenLayersKeepTheirWeightsAndFrozenBatchNormRunsInInferenceMode() {
        for (boolean eager : new boolean[] {false, true}) {
            Tensor[] xy = EagerVsCompiledTest.data(64, 12);
            RandomSeed.set(5);
            Model m = base("head", 3);
            m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
            train(m, xy, eager); // a plan traced with every layer trainable
            m.layer("base_1").setTrainable(false);
            m.layer("base_bn").setTrainable(false);
            assertFalse(m.layer("base_bn").isTrainable());
            assertEquals(List.of("base_2/kernel", "base_2/bias", "head/kernel", "head/bias"),
                    m.trainableVariables().stream().map(Variable::name).toList());
            Map<String, Tensor> before = m.weightsByName();
            train(m, xy, eager); // must re-plan: the old plan updates base_1 and batch statistics
            Map<String, Tensor> after = m.weightsByName();
            for (String w : List.of("base_1/kernel", "base_1/bias", "base_bn/gamma", "base_bn/beta",
                    "base_bn/moving_mean", "base_bn/moving_variance")) {
                assertSameValues(before, after, w);
            }
            assertFalse(java.util.Arrays.equals(before.get("head/kernel").toArray(),
                    after.get("head/kernel").toArray()), "the head still trains");
            // The order of weights (in files and getWeights) does not follow trainability.
            assertEquals(List.of("base_bn/gamma", "base_bn/beta", "base_bn/moving_mean", "base_bn/moving_variance"),
                    m.layer("base_bn").weights().stream().map(Variable::name).toList());
            assertEquals(4, m.layer("base_bn").nonTrainableWeights().size());
            assertTrue(m.summary().contains("Non-trainable params: " + (12 * 10 + 10 + 4 * 10)), m.summary());
        }
    }

    @Test
    void frozenBatchNormInATrainingStepComputesWhatInferenceComputes() {
        // Keras 3: a frozen BatchNormalization normalizes with its moving statistics in fit as well. With the whole
        // model frozen a training step changes nothing, so its loss equals evaluate's on the same batch.
        Tensor[] xy = EagerVsCompiledTest.data(32, 12);
        RandomSeed.set(9);
        Model m = base("head", 3);
        m.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        train(m, xy, false); // moving statistics away from their initial values
        m.setTrainable(false);
        assertTrue(m.trainableVariables().isEmpty());
        double evaluated = m.evaluate(xy[0], xy[1], 32).get("loss");
        Map<String, Tensor> before = m.weightsByName();
        dev.brisk.callbacks.History h = m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(32).shuffle(false).verbose(0));
        assertEquals(evaluated, h.get("loss").get(0), 1e-6);
        before.keySet().forEach(w -> assertSameValues(before, m.weightsByName(), w));
    }

    @Test
    void unfreezingContinuesFromTheSameOptimizerState() {
        Tensor[] xy = EagerVsCompiledTest.data(48, 12);
        RandomSeed.set(4);
        Model m = base("head", 3);
        Optimizer adam = Optimizers.adam(1e-2f);
        m.compile(adam, Losses.sparseCategoricalCrossentropy(true));
        train(m, xy, false);
        List<Variable> slots = adam.slotVariables();
        Variable firstMoment = slots.get(0);
        assertEquals("base_1/kernel/m", firstMoment.name());
        float[] moment = firstMoment.value().toArray();
        m.setTrainable(false);
        m.layer("head").setTrainable(true);
        assertFalse(m.layer("head").trainableWeights().isEmpty());
        assertTrue(m.trainableVariables().isEmpty(), "a frozen model trains nothing, whatever its layers say");
        m.setTrainable(true);
        m.layer("base_1").setTrainable(false);
        train(m, xy, false);
        assertArrayEquals(moment, firstMoment.value().toArray(), "a frozen weight's moments stay as they were");
        m.layer("base_1").setTrainable(true);
        train(m, xy, false);
        assertEquals(slots, adam.slotVariables(), "no new slots: each weight keeps its own");
        assertSame(firstMoment, adam.slotVariables().get(0));
        assertFalse(java.util.Arrays.equals(moment, firstMoment.value().toArray()));
    }

    @Test
    void compiledAndEagerAgreeWithFrozenLayers() {
        Tensor[] xy = EagerVsCompiledTest.data(64, 12);
        List<Tensor> compiled = frozenRun(xy, false);
        List<Tensor> eager = frozenRun(xy, true);
        for (int i = 0; i < compiled.size(); i++) {
            float[] a = compiled.get(i).toArray();
            float[] b = eager.get(i).toArray();
            for (int j = 0; j < a.length; j++) {
                assertEquals(a[j], b[j], 1e-4f + 1e-4f * Math.abs(a[j]), "weight " + i + "[" + j + "]");
            }
        }
    }

    private static List<Tensor> frozenRun(Tensor[] xy, boolean eager) {
        RandomSeed.set(21);
        Model m = base("head", 3);
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        m.layer("base_2").setTrainable(false);
        m.layer("base_bn").setTrainable(false);
        train(m, xy, eager);
        return m.getWeights();
    }

    @Test
    void loadsATrainedBaseByNameIntoAModelWithANewHead(@TempDir Path dir) throws IOException {
        Tensor[] xy = EagerVsCompiledTest.data(48, 12);
        RandomSeed.set(2);
        Model trained = base("head_a", 3);
        trained.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        train(trained, xy, false);
        Path file = dir.resolve("base.weights");
        trained.saveWeights(file);
        Map<String, Tensor> saved = trained.weightsByName();

        Model fresh = Sequential.of(Layers.input(12), dense(10, Activation.RELU, "base_1"),
                new BatchNormalization(0.9f, 1e-3f, "base_bn"), dense(8, Activation.TANH, "base_2"),
                dense(5, Activation.LINEAR, "head_b"));
        WeightsLoadReport report = fresh.loadWeightsByName(file, false);
        assertEquals(List.of("base_1/kernel", "base_1/bias", "base_bn/gamma", "base_bn/beta", "base_bn/moving_mean",
                "base_bn/moving_variance", "base_2/kernel", "base_2/bias"), report.loaded());
        assertEquals(List.of("head_b/kernel", "head_b/bias"), report.missing());
        assertEquals(List.of("head_a/kernel", "head_a/bias"), report.unused());
        assertTrue(report.skipped().isEmpty());
        for (String w : report.loaded()) {
            assertSameValues(saved, fresh.weightsByName(), w);
        }

        // A head of the same name but another shape: an error that changes nothing, or skipped and reported.
        Model other = base("head_a", 4);
        Map<String, Tensor> untouched = other.weightsByName();
        IOException e = assertThrows(IOException.class, () -> other.loadWeightsByName(file, false));
        assertTrue(e.getMessage().contains("head_a/kernel") && e.getMessage().contains(file.toString()),
                e.getMessage());
        untouched.keySet().forEach(w -> assertSameValues(untouched, other.weightsByName(), w));
        WeightsLoadReport skipped = other.loadWeightsByName(file, true);
        assertEquals(List.of("head_a/kernel: saved (8, 3), model (8, 4)", "head_a/bias: saved (3,), model (4,)"),
                skipped.skipped());
        assertEquals(8, skipped.loaded().size());
        assertSameValues(untouched, other.weightsByName(), "head_a/kernel");
        assertNotEquals(untouched.get("base_1/kernel").get(0), other.weightsByName().get("base_1/kernel").get(0));

        // Fine-tuning the loaded base with it frozen: only the new head moves.
        fresh.layer("base_1").setTrainable(false);
        fresh.layer("base_bn").setTrainable(false);
        fresh.layer("base_2").setTrainable(false);
        fresh.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        Map<String, Tensor> beforeTuning = fresh.weightsByName();
        train(fresh, xy, false);
        for (String w : report.loaded()) {
            assertSameValues(beforeTuning, fresh.weightsByName(), w);
        }
        assertTrue(Files.size(file) > 0);
    }
}
