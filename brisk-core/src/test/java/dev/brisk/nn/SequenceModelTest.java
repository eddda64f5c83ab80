package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Models over INT32 token sequences: Embedding, Dense over the last axis, the 1-D pooling and convolution layers;
 * training, eager against compiled, and the errors for misused integer inputs.
 */
class SequenceModelTest {
    private static final int VOCAB = 20;
    private static final int STEPS = 12;

    /**
     * Synthetic text classification: class 1 sequences contain more ids from the upper half of the vocabulary;
     * trailing zeros are padding.
     */
    static Tensor[] sequences(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] ids = new int[n * STEPS];
        float[] labels = new float[n];
        for (int i = 0; i < n; i++) {
            int label = r.nextInt(2);
            labels[i] = label;
            int length = 4 + r.nextInt(STEPS - 4);
            for (int t = 0; t < length; t++) {
                boolean upper = r.nextDouble() < (label == 1 ? 0.8 : 0.2);
                ids[i * STEPS + t] = upper ? VOCAB / 2 + r.nextInt(VOCAB / 2) : 1 + r.nextInt(VOCAB / 2 - 1);
            }
        }
        return new Tensor[] {Tensor.ofInts(ids, n, STEPS), Tensor.of(labels, n)};
    }

    private static Model textClassifier(boolean maskZero) {
        return Sequential.of(
                Layers.input(DType.INT32, STEPS),
                Layers.embedding(VOCAB, 8, maskZero),
                Layers.globalAveragePooling1d(),
                Layers.dense(2));
    }

    private static History train(Model model, boolean eager, Tensor[] xy, int epochs) {
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        model.runEagerly(eager);
        return model.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(16).seed(3).verbose(0));
    }

    @Test
    void textClassifierLearnsFromIntegerSequences() {
        for (boolean maskZero : new boolean[] {false, true}) {
            RandomSeed.set(5);
            History h = train(textClassifier(maskZero), false, sequences(200, 1), 8);
            List<Double> loss = h.get("loss");
            assertTrue(loss.get(loss.size() - 1) < 0.6 * loss.get(0), "mask " + maskZero + ": loss fell " + loss);
            assertTrue(h.last("accuracy") > 0.9, "mask " + maskZero + ": accuracy " + h.last("accuracy"));
        }
    }

    /** The same seeds give the same weights eagerly and compiled (to float rounding), through every new layer. */
    @Test
    void eagerMatchesCompiled() {
        Tensor[] xy = sequences(90, 2);
        for (int variant = 0; variant < 2; variant++) {
            RandomSeed.set(7);
            List<Tensor> eager = weightsAfterTraining(variant, true, xy);
            RandomSeed.set(7);
            List<Tensor> compiled = weightsAfterTraining(variant, false, xy);
            assertEquals(eager.size(), compiled.size());
            for (int i = 0; i < eager.size(); i++) {
                Tensor a = eager.get(i);
                Tensor b = compiled.get(i);
                for (int k = 0; k < a.size(); k++) {
                    assertEquals(a.get(k), b.get(k), 1e-4f * Math.max(1f, Math.abs(a.get(k))),
                            "variant " + variant + " weight " + i + " element " + k);
                }
            }
        }
    }

    private static List<Tensor> weightsAfterTraining(int variant, boolean eager, Tensor[] xy) {
        Model m = variant == 0 ? textClassifier(true) : Sequential.of(
                Layers.input(DType.INT32, STEPS),
                Layers.embedding(VOCAB, 6),
                Layers.conv1d(8, 3, 1, Padding.CAUSAL, Activation.RELU),
                Layers.maxPooling1d(2),
                Layers.dense(5, Activation.TANH),
                Layers.averagePooling1d(2),
                Layers.conv1d(4, 2, 2, Padding.SAME, Activation.LINEAR),
                Layers.globalMaxPooling1d(),
                Layers.dense(2));
        train(m, eager, xy, 2);
        return m.getWeights();
    }

    @Test
    void denseAppliesOverTheLastAxisOfAnyRank() {
        Model m = Sequential.of(Layers.input(3, 4, 5), Layers.dense(7));
        Tensor x = Tensor.zeros(2, 3, 4, 5);
        for (int i = 0; i < x.size(); i++) {
            x.set(i, (float) Math.sin(i));
        }
        Tensor y = m.predict(x, 2);
        assertArrayEquals(new int[] {2, 3, 4, 7}, y.shape().dims());
        Tensor w = m.getWeights().get(0);
        Tensor b = m.getWeights().get(1);
        int row = 13; // any (sample, step, position) row: x[row, :] @ w + b
        for (int j = 0; j < 7; j++) {
            double s = b.get(j);
            for (int i = 0; i < 5; i++) {
                s += x.get(row * 5 + i) * w.get(i * 7 + j);
            }
            assertEquals(s, y.get(row * 7 + j), 1e-5);
        }
    }

    @Test
    void integerIdsStayExactAboveTwoToThe24() {
        int[] ids = {0, 1, (1 << 24) + 1, Integer.MAX_VALUE, -1, 123456789};
        Tensor t = Tensor.ofInts(ids, 2, 3);
        assertEquals(DType.INT32, t.dtype());
        assertArrayEquals(ids, t.toIntArray());
        assertEquals((1 << 24) + 1, t.intAt(2));
        assertArrayEquals(ids, t.copy().toIntArray());
        assertArrayEquals(new int[] {ids[3], ids[4], ids[5]}, t.slice(1, 2).toIntArray());
        assertThrows(IllegalStateException.class, () -> Tensor.zeros(2).intAt(0));
        // Batches gathered by a shuffled dataset copy bits: every id arrives exactly.
        int n = 40;
        int[] big = new int[n * 2];
        float[] labels = new float[n];
        for (int i = 0; i < big.length; i++) {
            big[i] = (1 << 24) + 2 * i + 1;
        }
        InMemoryDataset d = new InMemoryDataset(Tensor.ofInts(big, n, 2), Tensor.of(labels, n));
        int seen = 0;
        for (var b : d.batches(8, true, 9L)) {
            assertEquals(DType.INT32, b.features().dtype());
            for (int v : b.features().toIntArray()) {
                assertTrue(v > (1 << 24) && (v - (1 << 24)) % 2 == 1, "id " + v);
                seen++;
            }
        }
        assertEquals(big.length, seen);
        String m = assertThrows(IllegalArgumentException.class, () -> d.dividedBy(255f)).getMessage();
        assertTrue(m.contains("INT32"), m);
    }

    @Test
    void floatArithmeticOnIntegerIdsIsRefusedNamingTheOpAndNode() {
        Model dense = Sequential.of(Layers.input(DType.INT32, STEPS), Layers.dense(2));
        dense.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = sequences(16, 3);
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> dense.fit(xy[0], xy[1], Fit.epochs(1).batchSize(8).verbose(0)));
        String m = messages(e);
        assertTrue(m.contains("MATMUL") && m.contains("INT32") && m.contains("%0") && m.contains("dense"), m);
    }

    @Test
    void embeddingNeedsIntegerIdsAndADeclaredIntegerInputNeedsThem() {
        Model floats = Sequential.of(Layers.input(STEPS), Layers.embedding(VOCAB, 4), Layers.globalAveragePooling1d(),
                Layers.dense(2));
        floats.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = sequences(16, 3);
        Tensor asFloats = Tensor.zeros(16, STEPS);
        String m1 = messages(assertThrows(RuntimeException.class,
                () -> floats.fit(asFloats, xy[1], Fit.epochs(1).batchSize(8).verbose(0))));
        assertTrue(m1.contains("Embedding") && m1.contains("INT32") && m1.contains("Tensor.ofInts"), m1);

        Model ints = textClassifier(false);
        ints.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        String m2 = messages(assertThrows(RuntimeException.class,
                () -> ints.fit(asFloats, xy[1], Fit.epochs(1).batchSize(8).verbose(0))));
        assertTrue(m2.contains("declared INT32") && m2.contains("FLOAT32"), m2);
    }

    @Test
    void outOfRangeIdsAreAnErrorNamingLayerIdAndVocabulary() {
        for (boolean eager : new boolean[] {false, true}) {
            Model m = textClassifier(false);
            m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
            m.runEagerly(eager);
            Tensor[] xy = sequences(16, 3);
            int[] ids = xy[0].toIntArray();
            ids[5] = VOCAB;
            Tensor bad = Tensor.ofInts(ids, 16, STEPS);
            String msg = messages(assertThrows(RuntimeException.class,
                    () -> m.fit(bad, xy[1], Fit.epochs(1).batchSize(16).verbose(0))));
            assertTrue(msg.contains("token id " + VOCAB) && msg.contains("[0, " + VOCAB + ")")
                    && msg.contains("embedding"), "eager " + eager + ": " + msg);
        }
    }

    @Test
    void conv1dRefusesAStrideWithADilationAndCausalIsConv1dOnly() {
        String m = assertThrows(IllegalArgumentException.class, () -> new dev.brisk.nn.layers.Conv1D(4, 3, 2,
                Padding.CAUSAL, 2, Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null,
                null)).getMessage();
        assertTrue(m.contains("dilation rate 2") && m.contains("strides 2"), m);
        assertThrows(IllegalArgumentException.class,
                () -> Layers.conv2d(4, 3, 1, Padding.CAUSAL, Activation.LINEAR));
    }

    @Test
    void maskedAverageSkipsPaddingSteps() {
        SymbolicTensor in = Input.of(DType.INT32, 4);
        var embedding = Layers.embedding(5, 3, true);
        Model m = Model.of(in, Layers.globalAveragePooling1d().apply(embedding.apply(in)));
        Tensor ids = Tensor.ofInts(new int[] {2, 4, 0, 0, 1, 0, 3, 0}, 2, 4);
        Tensor y = m.predict(ids, 2);
        Tensor table = embedding.embeddings().value();
        for (int j = 0; j < 3; j++) {
            assertEquals((table.get(2 * 3 + j) + table.get(4 * 3 + j)) / 2, y.get(j), 1e-6);
            assertEquals((table.get(1 * 3 + j) + table.get(3 * 3 + j)) / 2, y.get(3 + j), 1e-6);
        }
        for (int i = 0; i < table.size(); i++) { // Keras' default initializer: uniform in [-0.05, 0.05]
            assertTrue(Math.abs(table.get(i)) <= 0.05f && table.get(i) != 0f, "table " + table.get(i));
        }
    }

    /** A shuffled, prefetched pipeline of INT32 samples stacks INT32 batches and trains like the arrays. */
    @Test
    void pipelineOfIntegerSequencesTrains() {
        Tensor[] xy = sequences(200, 1);
        var pipeline = dev.brisk.data.Pipeline.fromArrays(xy[0], xy[1]).shuffle(200, 4).batch(16).prefetch(2);
        int[] firstIds = null;
        for (var b : pipeline) {
            assertEquals(DType.INT32, b.features().dtype());
            firstIds = b.features().toIntArray();
            break;
        }
        for (int id : firstIds) {
            assertTrue(id >= 0 && id < VOCAB, "id " + id);
        }
        RandomSeed.set(5);
        Model m = textClassifier(true);
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        History h = m.fit(pipeline, Fit.epochs(8).verbose(0));
        List<Double> loss = h.get("loss");
        assertTrue(loss.get(loss.size() - 1) < 0.6 * loss.get(0), "loss fell " + loss);
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
