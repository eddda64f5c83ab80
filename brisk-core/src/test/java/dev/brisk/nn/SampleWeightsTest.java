package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.TrainingParams;
import dev.brisk.data.Pipeline;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Keras' {@code sample_weight}, {@code class_weight} and {@code validation_split}, each against what it must equal:
 * a zero weight is the sample's absence, a class weight of 2 is the class's samples twice, the class weights are
 * the sample weights they stand for, a pipeline's weight column is the array's, and a split is the held-out tail.
 */
class SampleWeightsTest {
    static final int N = 24;

    static Model classifier(long seed) {
        RandomSeed.set(seed);
        return Sequential.of(Layers.input(5), Layers.dense(6, Activation.TANH), Layers.dense(3));
    }

    /** x (N, 5) and class labels (N) in 0..2. */
    static Tensor[] data(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[n * 5];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(3);
            for (int j = 0; j < 5; j++) {
                x[i * 5 + j] = (float) r.nextGaussian() + (j == y[i] ? 1f : 0f);
            }
        }
        return new Tensor[] {Tensor.of(x, n, 5), Tensor.of(y, n)};
    }

    private static List<Tensor> train(Model m, Tensor x, Tensor y, float lr, Fit fit, boolean eager) {
        m.compile(Optimizers.sgd(lr), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        m.runEagerly(eager);
        m.fit(x, y, fit);
        return m.getWeights();
    }

    private static Fit fullBatch() {
        return Fit.epochs(3).batchSize(N).shuffle(false).verbose(0);
    }

    private static void assertSameBits(List<Tensor> a, List<Tensor> b) {
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(a.get(i).toArray(), b.get(i).toArray(), 0f, "weight " + i);
        }
    }

    @Test
    void aZeroWeightRemovesASamplesEffectExactly() {
        for (boolean eager : new boolean[] {false, true}) {
            Tensor[] d = data(N, 1);
            float[] w = new float[N];
            Arrays.fill(w, 1f);
            w[4] = 0f;
            w[17] = 0f;
            Tensor weights = Tensor.of(w, N);
            List<Tensor> weighted = train(classifier(3), d[0], d[1], 0.1f,
                    Fit.epochs(3).batchSize(8).shuffle(false).verbose(0).sampleWeight(weights), eager);
            // The zero-weight samples replaced by other (finite) features and labels: nothing changes.
            Tensor x2 = d[0].copy();
            Tensor y2 = d[1].copy();
            for (int j = 0; j < 5; j++) {
                x2.set(4 * 5 + j, 40f - j);
                x2.set(17 * 5 + j, -7f * j);
            }
            y2.set(4, (d[1].get(4) + 1) % 3);
            y2.set(17, (d[1].get(17) + 2) % 3);
            List<Tensor> garbage = train(classifier(3), x2, y2, 0.1f,
                    Fit.epochs(3).batchSize(8).shuffle(false).verbose(0).sampleWeight(weights), eager);
            assertSameBits(weighted, garbage);
            List<Tensor> unweighted = train(classifier(3), d[0], d[1], 0.1f,
                    Fit.epochs(3).batchSize(8).shuffle(false).verbose(0), eager);
            assertFalse(Arrays.equals(weighted.get(0).toArray(), unweighted.get(0).toArray()),
                    "the weights changed the training");
        }
    }

    @Test
    void aClassWeightOfTwoIsTheClassTwiceForSgd() {
        Tensor[] d = data(N, 2);
        List<Tensor> weighted = train(classifier(4), d[0], d[1], 0.1f, fullBatch().classWeight(Map.of(1, 2f)), false);
        // The same full-batch SGD on the data with class 1's samples duplicated: the loss is the same sum over
        // more samples, so the learning rate scales by (N + n1) / N.
        int n1 = 0;
        for (int i = 0; i < N; i++) {
            n1 += d[1].get(i) == 1f ? 1 : 0;
        }
        int m = N + n1;
        float[] x = new float[m * 5];
        float[] y = new float[m];
        System.arraycopy(d[0].toArray(), 0, x, 0, N * 5);
        System.arraycopy(d[1].toArray(), 0, y, 0, N);
        int k = N;
        for (int i = 0; i < N; i++) {
            if (d[1].get(i) == 1f) {
                System.arraycopy(d[0].toArray(), i * 5, x, k * 5, 5);
                y[k++] = 1f;
            }
        }
        List<Tensor> duplicated = train(classifier(4), Tensor.of(x, m, 5), Tensor.of(y, m), 0.1f * m / N,
                Fit.epochs(3).batchSize(m).shuffle(false).verbose(0), false);
        for (int i = 0; i < weighted.size(); i++) {
            for (int j = 0; j < weighted.get(i).size(); j++) {
                assertEquals(duplicated.get(i).get(j), weighted.get(i).get(j), 1e-5f, "weight " + i + "," + j);
            }
        }
        assertTrue(n1 > 0 && n1 < N, "the data has class 1 and other classes");
    }

    @Test
    void classWeightsAreTheSampleWeightsTheyStandForAndPipelinesCarryThem() {
        Tensor[] d = data(N, 3);
        Map<Integer, Float> classWeight = Map.of(0, 0.5f, 2, 3f);
        float[] w = new float[N];
        for (int i = 0; i < N; i++) {
            w[i] = classWeight.getOrDefault((int) d[1].get(i), 1f);
        }
        Fit fit = Fit.epochs(2).batchSize(6).shuffle(false).verbose(0);
        List<Tensor> byClass = train(classifier(5), d[0], d[1], 0.1f, fit.classWeight(classWeight), false);
        List<Tensor> bySample = train(classifier(5), d[0], d[1], 0.1f,
                Fit.epochs(2).batchSize(6).shuffle(false).verbose(0).sampleWeight(Tensor.of(w, N)), false);
        assertSameBits(byClass, bySample);
        Model piped = classifier(5);
        piped.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        piped.fit(Pipeline.fromArrays(new Tensor[] {d[0]}, new Tensor[] {d[1]}, Tensor.of(w, N)).batch(6),
                Fit.epochs(2).verbose(0));
        assertSameBits(bySample, piped.getWeights());
        // A weight per sample through map(...) as well.
        Model mapped = classifier(5);
        mapped.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        mapped.fit(Pipeline.fromArrays(d[0], d[1])
                        .map(s -> s.withWeight(classWeight.getOrDefault((int) s.label().get(0), 1f))).batch(6),
                Fit.epochs(2).verbose(0));
        assertSameBits(bySample, mapped.getWeights());
    }

    @Test
    void weightedEvaluateIsTheWeightedSumOverTheBatchSize() {
        RandomSeed.set(8);
        Model m = Sequential.of(Layers.input(5), Layers.dense(1));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        Tensor[] d = data(N, 4);
        float[] w = new float[N];
        for (int i = 0; i < N; i++) {
            w[i] = (i % 4) * 0.5f;
        }
        Tensor p = m.predict(d[0], 8);
        double sum = 0;
        for (int i = 0; i < N; i++) {
            double e = p.get(i) - d[1].get(i);
            sum += w[i] * e * e;
        }
        Map<String, Double> logs = m.evaluate(new Tensor[] {d[0]}, new Tensor[] {d[1]}, Tensor.of(w, N), N);
        assertEquals(sum / N, logs.get("loss"), 1e-5);
    }

    @Test
    void validationSplitHoldsOutTheTailBeforeShuffling() {
        Tensor[] d = data(N * 2, 5); // 48 samples: 36 train, 12 validate
        Model split = classifier(6);
        split.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        Fit options = Fit.epochs(3).batchSize(8).seed(1).verbose(0).validationSplit(0.25f);
        History h = split.fit(d[0], d[1], options);
        Model explicit = classifier(6);
        explicit.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        History e = explicit.fit(d[0].slice(0, 36), d[1].slice(0, 36), Fit.epochs(3).batchSize(8).seed(1).verbose(0)
                .validation(d[0].slice(36, 48), d[1].slice(36, 48)));
        assertSameBits(explicit.getWeights(), split.getWeights());
        assertEquals(e.get("val_loss"), h.get("val_loss"));
        assertEquals(e.get("accuracy"), h.get("accuracy"));
        assertThrows(IllegalArgumentException.class, () -> split.fit(d[0], d[1], Fit.epochs(1).verbose(0)
                .validationSplit(0.5f).validation(d[0], d[1])));
        assertThrows(IllegalArgumentException.class, () -> Fit.epochs(1).validationSplit(1f));
        // Keras' floor(60 * (1 - 0.2)) is 48 in double arithmetic; the float 0.2f must not make it 47.
        int[] samples = new int[1];
        Tensor[] sixty = data(60, 6);
        split.fit(sixty[0], sixty[1], Fit.epochs(1).verbose(0).validationSplit(0.2f).callbacks(new Callback() {
            @Override
            public void setParams(TrainingParams params) {
                samples[0] = params.samplesPerEpoch();
            }
        }));
        assertEquals(48, samples[0]);
    }

    @Test
    void whatKerasRefusesIsRefused() {
        Tensor[] d = data(N, 6);
        Model m = classifier(7);
        m.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        float[] ones = new float[N];
        Arrays.fill(ones, 1f);
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class, () -> m.fit(d[0], d[1],
                Fit.epochs(1).verbose(0).classWeight(Map.of(0, 2f)).sampleWeight(Tensor.of(ones, N))));
        assertTrue(both.getMessage().contains("classWeight and sampleWeight"), both.getMessage());
        IllegalArgumentException piped = assertThrows(IllegalArgumentException.class, () -> m.fit(
                Pipeline.fromArrays(d[0], d[1]).batch(8), Fit.epochs(1).verbose(0).sampleWeight(Tensor.of(ones, N))));
        assertTrue(piped.getMessage().contains("Sample.withWeight"), piped.getMessage());
        Model two = MultiInputOutputTest.twoByTwo(3);
        MultiInputOutputTest.compile(two, false);
        Tensor[][] dd = MultiInputOutputTest.data(N, 7);
        IllegalArgumentException multi = assertThrows(IllegalArgumentException.class,
                () -> two.fit(dd[0], dd[1], Fit.epochs(1).verbose(0).classWeight(Map.of(0, 2f))));
        assertTrue(multi.getMessage().contains("one output"), multi.getMessage());
    }
}
