package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.metrics.Metrics;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Sample weights per output (Keras' {@code fit(sample_weight=[...])} and {@code {...}}) on the two-input,
 * two-output model of {@link MultiInputOutputTest}: each output's loss and weighted metrics are those of its own
 * weights, zero weights on an output are that output's absence, by position and by name alike, a validation split
 * holds out the same rows of each, and compiled steps agree with eager ones.
 */
class OutputWeightsTest {
    private static final int N = MultiInputOutputTest.N;

    private static Tensor weights(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] w = new float[N];
        for (int i = 0; i < N; i++) {
            w[i] = (float) (2 * r.nextDouble());
        }
        return Tensor.of(w, N);
    }

    private static Tensor constant(float value) {
        float[] w = new float[N];
        java.util.Arrays.fill(w, value);
        return Tensor.of(w, N);
    }

    private static Model model(List<Float> lossWeights, boolean eager) {
        Model m = MultiInputOutputTest.twoByTwo(5);
        m.compile(Optimizers.sgd(0.05f), List.of(Losses.sparseCategoricalCrossentropy(true),
                Losses.meanSquaredError()), lossWeights, List.of(List.<MetricSpec>of(Metrics.weighted(
                Metrics.accuracy())), List.<MetricSpec>of(Metrics.weighted(Metrics.meanAbsoluteError()))));
        m.runEagerly(eager);
        return m;
    }

    @Test
    void eachOutputIsWeighedByItsOwnArray() {
        Tensor[][] d = MultiInputOutputTest.data(N, 3);
        Tensor wa = weights(1);
        Tensor wb = weights(2);
        for (boolean eager : new boolean[] {false, true}) {
            Model m = model(List.of(0.5f, 2f), eager);
            Map<String, Double> both = m.evaluate(d[0], d[1], new Tensor[] {wa, wb}, 8);
            Map<String, Double> byA = m.evaluate(d[0], d[1], wa, 8);
            Map<String, Double> byB = m.evaluate(d[0], d[1], wb, 8);
            assertEquals(byA.get("cls_loss"), both.get("cls_loss"), 1e-6);
            assertEquals(byB.get("reg_loss"), both.get("reg_loss"), 1e-6);
            assertEquals(both.get("cls_loss") + both.get("reg_loss"), both.get("loss"), 1e-5);
            assertEquals(byA.get("cls_accuracy"), both.get("cls_accuracy"), 1e-12);
            assertEquals(byB.get("reg_mean_absolute_error"), both.get("reg_mean_absolute_error"), 1e-12);
        }
    }

    private static List<Tensor> train(Model m, Tensor[][] d, Fit fit) {
        m.fit(d[0], d[1], fit);
        return m.getWeights();
    }

    private static void assertClose(List<Tensor> expected, List<Tensor> actual, String what) {
        for (int i = 0; i < expected.size(); i++) {
            for (int j = 0; j < expected.get(i).size(); j++) {
                assertEquals(expected.get(i).get(j), actual.get(i).get(j), 1e-6f, what + ": weight " + i + "," + j);
            }
        }
    }

    @Test
    void zeroWeightsOnAnOutputAreItsAbsenceByPositionAndByName() {
        Tensor[][] d = MultiInputOutputTest.data(N, 4);
        Tensor w = weights(3);
        Fit fit = Fit.epochs(2).batchSize(8).shuffle(false).verbose(0);
        for (boolean eager : new boolean[] {false, true}) {
            List<Tensor> withoutReg = train(model(List.of(0.5f, 0f), eager), d, fit.sampleWeight(w));
            List<Tensor> byPosition = train(model(List.of(0.5f, 2f), eager), d,
                    fit.sampleWeight(new Tensor[] {w, constant(0f)}));
            assertClose(withoutReg, byPosition, "by position");
            List<Tensor> byName = train(model(List.of(0.5f, 2f), eager), d,
                    fit.sampleWeight(Map.of("cls", w, "reg", constant(0f))));
            assertClose(withoutReg, byName, "by name");
            // An output left out of the dict weighs 1.
            List<Tensor> clsOnly = train(model(List.of(0.5f, 2f), eager), d, fit.sampleWeight(Map.of("cls", w)));
            List<Tensor> clsAndOnes = train(model(List.of(0.5f, 2f), eager), d,
                    fit.sampleWeight(new Tensor[] {w, constant(1f)}));
            assertClose(clsAndOnes, clsOnly, "left out");
        }
    }

    @Test
    void aValidationSplitHoldsOutEachOutputsWeights() {
        Tensor[][] d = MultiInputOutputTest.data(N, 5);
        Tensor wa = weights(4);
        Tensor wb = weights(5);
        Model m = model(List.of(0.5f, 2f), false);
        History h = m.fit(d[0], d[1], Fit.epochs(1).batchSize(8).shuffle(false).verbose(0).validationSplit(0.25f)
                .sampleWeight(new Tensor[] {wa, wb}));
        int at = 36;
        Tensor[] x = {d[0][0].slice(at, N), d[0][1].slice(at, N)};
        Tensor[] y = {d[1][0].slice(at, N), d[1][1].slice(at, N)};
        Map<String, Double> held = m.evaluate(x, y, new Tensor[] {wa.slice(at, N), wb.slice(at, N)}, 8);
        assertEquals(held.get("loss"), h.last("val_loss"), 1e-6);
        assertEquals(held.get("cls_accuracy"), h.last("val_cls_accuracy"), 1e-12);
    }

    @Test
    void validationArraysTakeOneWeightArrayPerOutput() {
        Tensor[][] d = MultiInputOutputTest.data(N, 7);
        Tensor[][] v = MultiInputOutputTest.data(N, 8);
        Tensor[] w = {weights(6), weights(7)};
        for (boolean eager : new boolean[] {false, true}) {
            Model m = model(List.of(0.5f, 2f), eager);
            History h = m.fit(d[0], d[1], Fit.epochs(1).batchSize(8).shuffle(false).verbose(0)
                    .validation(v[0], v[1], w));
            Map<String, Double> held = m.evaluate(v[0], v[1], w, 8);
            assertEquals(held.get("cls_loss"), h.last("val_cls_loss"), 1e-6);
            assertEquals(held.get("reg_loss"), h.last("val_reg_loss"), 1e-6);
            assertEquals(held.get("reg_mean_absolute_error"), h.last("val_reg_mean_absolute_error"), 1e-12);
        }
    }

    @Test
    void weightsThatDoNotMatchTheOutputsAreRefusedByName() {
        Tensor[][] d = MultiInputOutputTest.data(N, 6);
        Model m = model(List.of(0.5f, 2f), false);
        Fit fit = Fit.epochs(1).batchSize(8).verbose(0);
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
                () -> m.fit(d[0], d[1], fit.sampleWeight(new Tensor[] {weights(1)})));
        assertTrue(count.getMessage().contains("2 outputs") && count.getMessage().contains("1 sample weight"),
                count.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> m.fit(d[0], d[1], fit.sampleWeight(Map.of("nope", weights(1)))));
        assertTrue(name.getMessage().contains("'nope'") && name.getMessage().contains("cls"), name.getMessage());
        IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
                () -> m.fit(d[0], d[1], fit.sampleWeight(new Tensor[] {weights(1), Tensor.of(new float[3], 3)})));
        assertTrue(shape.getMessage().contains("output 1"), shape.getMessage());
    }
}
