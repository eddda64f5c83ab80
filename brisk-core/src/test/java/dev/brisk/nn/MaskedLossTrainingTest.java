package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A model whose output carries the padding mask of {@code Embedding(maskZero)} (through
 * {@code LSTM(returnSequences)} and {@code Dense}) trains on its real steps only, as Keras does: a right-padded batch
 * gives the loss, gradients and accuracy of the same samples without padding (each sample alone, weighted by its
 * number of steps), whatever targets sit at the padded steps; eager and compiled steps agree.
 */
class MaskedLossTrainingTest {
    private static final int STEPS = 5;
    private static final int VOCAB = 10;
    /** Two samples of 2 and 4 real tokens. */
    private static final int[][] IDS = {{3, 5}, {2, 7, 1, 4}};
    private static final int[][] TARGETS = {{1, 2}, {6, 3, 8, 4}};

    private static Model model(int steps) {
        RandomSeed.set(41);
        Model m = Sequential.of(
                Layers.input(DType.INT32, steps),
                Layers.embedding(VOCAB, 4, true),
                Layers.lstm(6, true, false),
                Layers.dense(VOCAB));
        m.compile(Optimizers.sgd(1f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    /** The padded batch: ids padded with 0, targets at padded steps set to {@code junk}. */
    private static Tensor[] padded(int junk) {
        int[] x = new int[IDS.length * STEPS];
        float[] y = new float[IDS.length * STEPS];
        java.util.Arrays.fill(y, junk);
        for (int r = 0; r < IDS.length; r++) {
            for (int t = 0; t < IDS[r].length; t++) {
                x[r * STEPS + t] = IDS[r][t];
                y[r * STEPS + t] = TARGETS[r][t];
            }
        }
        return new Tensor[] {Tensor.ofInts(x, IDS.length, STEPS), Tensor.of(y, IDS.length, STEPS)};
    }

    /** Loss, accuracy and the gradient of one full-batch step (SGD with rate 1: the weights' change), in order. */
    private record Step(double loss, double accuracy, List<float[]> gradients) {
    }

    private static Step step(Model m, List<Tensor> weights, Tensor x, Tensor y) {
        m.setWeights(weights);
        Map<String, Double> logs = m.evaluate(x, y, x.shape().dim(0));
        m.fit(x, y, Fit.epochs(1).batchSize(x.shape().dim(0)).verbose(0));
        List<float[]> grads = new ArrayList<>();
        List<Tensor> after = m.getWeights();
        for (int i = 0; i < weights.size(); i++) {
            float[] w0 = weights.get(i).toArray();
            float[] w1 = after.get(i).toArray();
            for (int j = 0; j < w0.length; j++) {
                w0[j] -= w1[j];
            }
            grads.add(w0);
        }
        return new Step(logs.get("loss"), logs.get("accuracy"), grads);
    }

    private static Step paddedStep(boolean eager, int junk) {
        Model m = model(STEPS).runEagerly(eager);
        Tensor[] xy = padded(junk);
        return step(m, model(STEPS).getWeights(), xy[0], xy[1]);
    }

    /** The real steps' loss, accuracy and gradients from each sample alone, weighted by its length. */
    private static Step unpaddedStep() {
        List<Tensor> weights = model(STEPS).getWeights();
        int total = 0;
        double loss = 0;
        double accuracy = 0;
        List<float[]> grads = null;
        for (int r = 0; r < IDS.length; r++) {
            int n = IDS[r].length;
            float[] y = new float[n];
            for (int t = 0; t < n; t++) {
                y[t] = TARGETS[r][t];
            }
            Step s = step(model(n), weights, Tensor.ofInts(IDS[r], 1, n), Tensor.of(y, 1, n));
            loss += n * s.loss();
            accuracy += n * s.accuracy();
            if (grads == null) {
                grads = new ArrayList<>();
                for (float[] g : s.gradients()) {
                    grads.add(new float[g.length]);
                }
            }
            for (int i = 0; i < grads.size(); i++) {
                for (int j = 0; j < grads.get(i).length; j++) {
                    grads.get(i)[j] += n * s.gradients().get(i)[j];
                }
            }
            total += n;
        }
        for (float[] g : grads) {
            for (int j = 0; j < g.length; j++) {
                g[j] /= total;
            }
        }
        return new Step(loss / total, accuracy / total, grads);
    }

    private static void assertSame(Step expected, Step actual, double tol, String what) {
        assertEquals(expected.loss(), actual.loss(), tol, what + ": loss");
        assertEquals(expected.accuracy(), actual.accuracy(), 1e-12, what + ": accuracy");
        double largest = 0;
        for (int i = 0; i < expected.gradients().size(); i++) {
            float[] e = expected.gradients().get(i);
            float[] a = actual.gradients().get(i);
            for (int j = 0; j < e.length; j++) {
                assertEquals(e[j], a[j], tol, what + ": gradient of weight " + i + "[" + j + "]");
                largest = Math.max(largest, Math.abs(e[j]));
            }
        }
        assertTrue(largest > 1e-3, "the gradients are not all zero");
    }

    @Test
    void aPaddedBatchTrainsLikeItsSamplesWithoutPadding() {
        Step expected = unpaddedStep();
        assertSame(expected, paddedStep(false, 9), 1e-5, "compiled, padded");
        // The targets at padded steps are read by nothing.
        assertSame(expected, paddedStep(false, 0), 1e-5, "compiled, other padding targets");
    }

    @Test
    void eagerAndCompiledMaskedStepsAgree() {
        assertSame(paddedStep(false, 9), paddedStep(true, 9), 1e-6, "eager vs compiled");
    }
}
