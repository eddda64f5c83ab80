package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.losses.Reduction;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Training with Keras' loss reductions: with full batches and SGD, {@code sum} is the default mean with the
 * learning rate times the batch size, and {@code mean_with_sample_weight} the weighted default with the learning
 * rate times the batch size over the weights' sum; compiled steps agree with eager ones; an unreduced
 * loss is refused by name.
 */
class LossReductionFitTest {
    private static final int N = SampleWeightsTest.N;

    private static List<Tensor> train(Loss loss, float lr, Tensor weights, boolean eager) {
        Tensor[] d = SampleWeightsTest.data(N, 7);
        Model m = SampleWeightsTest.classifier(11);
        m.compile(Optimizers.sgd(lr), loss);
        m.runEagerly(eager);
        Fit fit = Fit.epochs(3).batchSize(N).shuffle(false).verbose(0);
        m.fit(d[0], d[1], weights == null ? fit : fit.sampleWeight(weights));
        return m.getWeights();
    }

    private static void assertClose(List<Tensor> expected, List<Tensor> actual) {
        for (int i = 0; i < expected.size(); i++) {
            for (int j = 0; j < expected.get(i).size(); j++) {
                assertEquals(expected.get(i).get(j), actual.get(i).get(j), 2e-5f, "weight " + i + "," + j);
            }
        }
    }

    private static Tensor weights() {
        float[] w = new float[N];
        for (int i = 0; i < N; i++) {
            w[i] = 0.25f + (i % 5) * 0.5f;
        }
        return Tensor.of(w, N);
    }

    @Test
    void sumIsTheMeanWithTheLearningRateTimesTheBatch() {
        Loss mean = Losses.sparseCategoricalCrossentropy(true);
        List<Tensor> bySum = train(mean.withReduction(Reduction.SUM), 0.01f, null, false);
        assertClose(train(mean, 0.01f * N, null, false), bySum);
        List<Tensor> eager = train(mean.withReduction(Reduction.SUM), 0.01f, null, true);
        for (int i = 0; i < bySum.size(); i++) {
            assertArrayEquals(eager.get(i).toArray(), bySum.get(i).toArray(), 1e-6f, "eager and compiled, weight " + i);
        }
    }

    @Test
    void meanWithSampleWeightDividesByTheWeightsSum() {
        Tensor w = weights();
        double total = 0;
        for (int i = 0; i < N; i++) {
            total += w.get(i);
        }
        Loss mean = Losses.sparseCategoricalCrossentropy(true);
        List<Tensor> byWeights = train(mean.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), 0.1f, w, false);
        assertClose(train(mean, (float) (0.1 * N / total), w, false), byWeights);
        List<Tensor> eager = train(mean.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), 0.1f, w, true);
        for (int i = 0; i < byWeights.size(); i++) {
            assertArrayEquals(eager.get(i).toArray(), byWeights.get(i).toArray(), 1e-6f,
                    "eager and compiled, weight " + i);
        }
    }

    @Test
    void anUnreducedLossIsRefusedNamingItAndTheOutput() {
        for (boolean eager : new boolean[] {false, true}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> train(Losses.sparseCategoricalCrossentropy(true).withReduction(Reduction.NONE), 0.1f, null,
                            eager));
            assertTrue(e.getMessage().contains("sparse_categorical_crossentropy") && e.getMessage().contains("'none'")
                    && e.getMessage().contains("output 0"), e.getMessage());
        }
    }
}
