package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.data.Sample;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A functional model with two inputs ("image", "meta") and two outputs ("cls", a 3-class classifier, and "reg", a
 * regression) trained from arrays and from pipelines by position and by name, with per-output losses, loss weights
 * and metrics; compiled and eager agree.
 */
class MultiInputOutputTest {
    static final int N = 48;

    static Dense named(int units, Activation a, String name) {
        return new Dense(units, a, true, Initializer.glorotUniform(), Initializer.zeros(), null, name);
    }

    /** Two inputs, a shared trunk, two heads named "cls" and "reg". */
    static Model twoByTwo(long seed) {
        RandomSeed.set(seed);
        SymbolicTensor image = Input.named("image", 6);
        SymbolicTensor meta = Input.named("meta", 3);
        SymbolicTensor h = Layers.concatenate().apply(Layers.dense(8, Activation.TANH).apply(image),
                Layers.dense(4, Activation.TANH).apply(meta));
        return Model.of(List.of(image, meta), List.of(named(3, Activation.LINEAR, "cls").apply(h),
                named(1, Activation.LINEAR, "reg").apply(h)));
    }

    static void compile(Model m, boolean eager) {
        m.compile(Optimizers.sgd(0.05f), List.of(Losses.sparseCategoricalCrossentropy(true), Losses.meanSquaredError()),
                List.of(0.5f, 2f), List.of(List.<MetricSpec>of(Metrics.accuracy()),
                        List.<MetricSpec>of(Metrics.meanAbsoluteError())));
        m.runEagerly(eager);
    }

    /** x = [image (N, 6), meta (N, 3)], y = [class (N), value (N, 1)]. */
    static Tensor[][] data(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] image = new float[n * 6];
        float[] meta = new float[n * 3];
        float[] cls = new float[n];
        float[] reg = new float[n];
        for (int i = 0; i < n; i++) {
            cls[i] = r.nextInt(3);
            for (int j = 0; j < 6; j++) {
                image[i * 6 + j] = (float) r.nextGaussian() + (j % 3 == cls[i] ? 1f : 0f);
            }
            for (int j = 0; j < 3; j++) {
                meta[i * 3 + j] = (float) r.nextGaussian();
            }
            reg[i] = meta[i * 3] - 0.5f * meta[i * 3 + 1];
        }
        return new Tensor[][] {{Tensor.of(image, n, 6), Tensor.of(meta, n, 3)},
                {Tensor.of(cls, n), Tensor.of(reg, n, 1)}};
    }

    private static Fit fit() {
        return Fit.epochs(3).batchSize(8).shuffle(false).verbose(0);
    }

    private static void assertSameBits(List<Tensor> a, List<Tensor> b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(a.get(i).toArray(), b.get(i).toArray(), 0f, "weight " + i);
        }
    }

    @Test
    void pipelinesByPositionAndByNameTrainAsTheArrays() {
        Tensor[][] d = data(N, 1);
        Model arrays = twoByTwo(5);
        compile(arrays, false);
        History h = arrays.fit(d[0], d[1], fit());

        Model positional = twoByTwo(5);
        compile(positional, false);
        Pipeline<Batch> byPosition = Pipeline.fromArrays(d[0], d[1], null).batch(8);
        History hp = positional.fit(byPosition, Fit.epochs(3).verbose(0));
        assertSameBits(arrays.getWeights(), positional.getWeights());
        assertEquals(h.asMap(), withoutRuntime(hp.asMap(), h.asMap()));

        // Named parts in another order than the model's: fit puts each where its name says.
        Model named = twoByTwo(5);
        compile(named, false);
        Map<String, Tensor> x = new LinkedHashMap<>();
        x.put("meta", d[0][1]);
        x.put("image", d[0][0]);
        Map<String, Tensor> y = new LinkedHashMap<>();
        y.put("reg", d[1][1]);
        y.put("cls", d[1][0]);
        named.fit(Pipeline.fromArrays(x, y, null).batch(8), Fit.epochs(3).verbose(0));
        assertSameBits(arrays.getWeights(), named.getWeights());

        // predict on a pipeline of named inputs gives the array predictions, one array per output.
        Tensor[] fromArrays = arrays.predict(d[0], 8);
        Tensor[] fromPipeline = named.predictOutputs(Pipeline.fromArrays(x, Map.of(), null).batch(8));
        for (int i = 0; i < 2; i++) {
            assertArrayEquals(fromArrays[i].toArray(), fromPipeline[i].toArray(), 0f, "output " + i);
        }
    }

    /** The per-epoch timing entries differ between runs; everything else must be equal. */
    private static Map<String, List<Double>> withoutRuntime(Map<String, List<Double>> m, Map<String, List<Double>> ref) {
        Map<String, List<Double>> out = new LinkedHashMap<>(m);
        for (String k : List.of("cpu_util", "input_wait")) {
            out.put(k, ref.get(k));
        }
        return out;
    }

    @Test
    void logsEachOutputsWeightedLossAndItsOwnMetrics() {
        Tensor[][] d = data(N, 2);
        Model m = twoByTwo(6);
        compile(m, false);
        m.fit(d[0], d[1], fit().validation(d[0], d[1]));
        Map<String, Double> e = m.evaluate(d[0], d[1], 8);
        assertEquals(List.of("loss", "cls_loss", "reg_loss", "cls_accuracy", "reg_mean_absolute_error"),
                List.copyOf(e.keySet()));
        // The losses, computed here from the predictions: 0.5 x cross-entropy and 2 x MSE, summed.
        Tensor[] p = m.predict(d[0], 8);
        double ce = 0;
        double se = 0;
        for (int i = 0; i < N; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < 3; k++) {
                max = Math.max(max, p[0].get(i * 3 + k));
            }
            double z = 0;
            for (int k = 0; k < 3; k++) {
                z += Math.exp(p[0].get(i * 3 + k) - max);
            }
            ce += Math.log(z) + max - p[0].get(i * 3 + (int) d[1][0].get(i));
            double diff = p[1].get(i) - d[1][1].get(i);
            se += diff * diff;
        }
        assertEquals(0.5 * ce / N, e.get("cls_loss"), 1e-5);
        assertEquals(2 * se / N, e.get("reg_loss"), 1e-5);
        assertEquals(e.get("cls_loss") + e.get("reg_loss"), e.get("loss"), 1e-5);
        // Fit.validation(Tensor[], Tensor[]) after the last epoch scored the weights evaluate sees.
        History h = m.fit(d[0], d[1], Fit.epochs(1).batchSize(8).shuffle(false).verbose(0)
                .validation(d[0], d[1]));
        Map<String, Double> after = m.evaluate(d[0], d[1], 8);
        assertEquals(after.get("loss"), h.last("val_loss"), 1e-6);
        assertEquals(after.get("reg_mean_absolute_error"), h.last("val_reg_mean_absolute_error"), 1e-6);
    }

    @Test
    void compiledAndEagerAgree() {
        Tensor[][] d = data(N, 3);
        Model compiled = twoByTwo(9);
        compile(compiled, false);
        compiled.fit(Pipeline.fromArrays(d[0], d[1], null).batch(8), Fit.epochs(2).verbose(0));
        Model eager = twoByTwo(9);
        compile(eager, true);
        eager.fit(Pipeline.fromArrays(d[0], d[1], null).batch(8), Fit.epochs(2).verbose(0));
        List<Tensor> a = compiled.getWeights();
        List<Tensor> b = eager.getWeights();
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < a.get(i).size(); k++) {
                assertEquals(a.get(i).get(k), b.get(i).get(k), 1e-5f * Math.max(1f, Math.abs(a.get(i).get(k))));
            }
        }
        assertEquals(compiled.evaluate(d[0], d[1], 8).get("loss"), eager.evaluate(d[0], d[1], 8).get("loss"), 1e-5);
    }

    @Test
    void compileByOutputName() {
        Tensor[][] d = data(N, 4);
        Model byList = twoByTwo(7);
        compile(byList, false);
        byList.fit(d[0], d[1], fit());
        Model byName = twoByTwo(7);
        byName.compile(Optimizers.sgd(0.05f),
                Map.of("reg", Losses.meanSquaredError(), "cls", Losses.sparseCategoricalCrossentropy(true)),
                Map.of("cls", 0.5f, "reg", 2f), Map.of("cls", List.of(Metrics.accuracy())));
        byName.fit(d[0], d[1], fit());
        assertSameBits(byList.getWeights(), byName.getWeights());
        assertTrue(byName.evaluate(d[0], d[1], 8).containsKey("cls_accuracy"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> byName.compile(
                Optimizers.sgd(0.1f), Map.of("cls", Losses.meanSquaredError(), "clss", Losses.meanSquaredError()),
                null, null));
        assertTrue(e.getMessage().contains("clss"), e.getMessage());
    }

    @Test
    void sampleInputTransformsOneInputOfASample() {
        Tensor[][] d = data(N, 6);
        Tensor doubled = d[0][1].copy();
        for (int i = 0; i < doubled.size(); i++) {
            doubled.set(i, 2 * doubled.get(i));
        }
        Model arrays = twoByTwo(10);
        compile(arrays, false);
        arrays.fit(new Tensor[] {d[0][0], doubled}, d[1], fit());
        Model mapped = twoByTwo(10);
        compile(mapped, false);
        mapped.fit(Pipeline.fromArrays(d[0], d[1], null).map(Sample.input(1, t -> {
            Tensor out = t.copy();
            for (int i = 0; i < out.size(); i++) {
                out.set(i, 2 * out.get(i));
            }
            return out;
        })).batch(8), Fit.epochs(3).verbose(0));
        assertSameBits(arrays.getWeights(), mapped.getWeights());
    }

    @Test
    void badPartsAreRefusedByName() {
        Tensor[][] d = data(N, 5);
        Model m = twoByTwo(8);
        compile(m, false);
        Map<String, Tensor> x = Map.of("image", d[0][0], "metadata", d[0][1]);
        Map<String, Tensor> y = Map.of("cls", d[1][0], "reg", d[1][1]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.fit(Pipeline.fromArrays(x, y, null).batch(8), Fit.epochs(1).verbose(0)));
        assertTrue(e.getMessage().contains("'meta'"), e.getMessage());
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class, () -> m.fit(
                Pipeline.fromArrays(new Tensor[] {d[0][0]}, d[1], null).batch(8), Fit.epochs(1).verbose(0)));
        assertTrue(one.getMessage().contains("2 input(s)"), one.getMessage());
        IllegalArgumentException several = assertThrows(IllegalArgumentException.class,
                () -> m.predict(Pipeline.fromArrays(d[0], null, null).batch(8)));
        assertTrue(several.getMessage().contains("predictOutputs"), several.getMessage());
        assertThrows(IllegalStateException.class, () -> Sample.of(d[0], d[1]).features());
    }
}
