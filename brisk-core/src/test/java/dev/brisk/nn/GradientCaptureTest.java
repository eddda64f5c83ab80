package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.Callback;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Gradients captured for TensorBoard are the ones the step applies, and capturing them changes nothing. */
class GradientCaptureTest {
    @Test
    void sgdMovesEachWeightByMinusLearningRateTimesTheCapturedGradient() {
        Tensor[] xy = EagerVsCompiledTest.data(40, 8, 8, 1);
        RandomSeed.set(3);
        Model m = EagerVsCompiledTest.cnn();
        float lr = 0.1f;
        m.compile(Optimizers.sgd(lr), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(40).seed(1).verbose(0)); // compile the plan first
        Map<String, Tensor> before = m.weightsByName();
        m.captureGradientsOfNextStep();
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(40).seed(1).verbose(0)); // one full-batch step
        Map<String, Tensor> after = m.weightsByName();
        Map<String, Tensor> grads = m.capturedGradients();
        assertEquals(m.trainableVariables().stream().map(v -> v.name()).toList(), List.copyOf(grads.keySet()));
        double largest = 0;
        for (Map.Entry<String, Tensor> g : grads.entrySet()) {
            float[] w0 = before.get(g.getKey()).toArray();
            float[] w1 = after.get(g.getKey()).toArray();
            float[] gv = g.getValue().toArray();
            assertEquals(w0.length, gv.length, g.getKey());
            for (int i = 0; i < gv.length; i++) {
                float applied = (w0[i] - w1[i]) / lr;
                float tol = 1e-4f + 1e-3f * Math.abs(gv[i]);
                assertEquals(gv[i], applied, tol, g.getKey() + "[" + i + "]");
                largest = Math.max(largest, Math.abs(gv[i]));
            }
        }
        assertTrue(largest > 1e-3, "the gradients are not all zero");
    }

    /** Asks for gradients on the first batch of every epoch, as TensorBoard does on histogram epochs. */
    private static final class Capture extends Callback {
        int captured;

        @Override
        public void onTrainBatchBegin(int batch, Map<String, Double> logs) {
            if (batch == 0) {
                model.captureGradientsOfNextStep();
            }
        }

        @Override
        public void onEpochEnd(int epoch, Map<String, Double> logs) {
            captured += model.capturedGradients().isEmpty() ? 0 : 1;
        }
    }

    @Test
    void capturingDoesNotChangeTraining() {
        // Batch norm's moving statistics and dropout's seeds would notice an extra training pass.
        Tensor[] xy = EagerVsCompiledTest.data(90, 8, 8, 1);
        List<Tensor> plain = train(xy, null);
        Capture capture = new Capture();
        List<Tensor> watched = train(xy, capture);
        assertEquals(3, capture.captured);
        for (int i = 0; i < plain.size(); i++) {
            assertArrayEquals(plain.get(i).toArray(), watched.get(i).toArray(), "weight " + i);
        }
    }

    private static List<Tensor> train(Tensor[] xy, Callback cb) {
        RandomSeed.set(17);
        Model m = EagerVsCompiledTest.cnn();
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        Fit fit = Fit.epochs(3).batchSize(16).seed(3).verbose(0);
        if (cb != null) {
            fit.callbacks(cb);
        }
        m.fit(xy[0], xy[1], fit);
        return m.getWeights();
    }
}
