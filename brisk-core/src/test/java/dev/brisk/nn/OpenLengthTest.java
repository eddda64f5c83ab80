package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.data.Sample;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Bidirectional;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Embedding;
import dev.brisk.nn.layers.Flatten;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A model whose sequence length is left open ({@link Shape#OPEN}, Keras' {@code Input(shape=(None, 4))}) trained on
 * batches of different lengths computes, step by step, what the same model declared for each batch's length computes
 * on that batch: the same predictions and the same weights after each SGD step, compiled (the same bits: one plan per
 * length, traced from the same graph) and eager. Each architecture covers a sequence layer of its own: the recurrent
 * layers, Conv1D with each padding, the 1-D poolings, LayerNormalization and causal MultiHeadAttention, whose mask
 * must be sized by each batch's own length.
 */
class OpenLengthTest {
    private static final int FEATURES = 4;
    private static final int CLASSES = 3;
    /** The lengths of the batches, in training order: each length comes back, so a plan is reused. */
    private static final int[] LENGTHS = {5, 8, 5, 7, 8};
    private static final int BATCH = 6;

    /** The model of architecture {@code which} for sequences of {@code length} steps ({@link Shape#OPEN} or not). */
    static Model model(String which, int length) {
        SymbolicTensor x = Input.of(length, FEATURES);
        SymbolicTensor h = switch (which) {
            case "lstm" -> Layers.lstm(6).apply(x);
            case "gru" -> Layers.gru(6, true, true).apply(x);
            case "simple_rnn" -> Layers.simpleRnn(6).apply(x);
            case "bidirectional" -> Layers.bidirectional(Layers.lstm(5, true, false),
                    Bidirectional.MergeMode.CONCAT).apply(x);
            case "conv1d" -> Layers.conv1d(6, 3, 1, Padding.CAUSAL, Activation.RELU).apply(
                    Layers.conv1d(6, 3, 1, Padding.SAME, Activation.TANH).apply(
                            Layers.conv1d(6, 2, 1, Padding.VALID, Activation.TANH).apply(x)));
            case "pooling" -> Layers.maxPooling1d(2).apply(Layers.averagePooling1d(2).apply(
                    Layers.conv1d(6, 2, 1, Padding.SAME, Activation.TANH).apply(x)));
            case "attention" -> {
                SymbolicTensor d = Layers.dense(8).apply(x);
                SymbolicTensor a = Layers.multiHeadAttention(2, 4, true).apply(d, d);
                yield Layers.layerNormalization().apply(Layers.add().apply(d, a));
            }
            default -> throw new IllegalArgumentException(which);
        };
        if (h.shape().rank() == 2) {
            h = which.equals("pooling") ? Layers.globalMaxPooling1d().apply(h)
                    : Layers.globalAveragePooling1d().apply(h);
        }
        return Model.of(List.of(x), List.of(Layers.dense(CLASSES).apply(h)));
    }

    /** One batch per entry of {@link #LENGTHS}, of random features and classes. */
    static List<Batch> batches(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Batch> out = new ArrayList<>();
        for (int length : LENGTHS) {
            List<Sample> samples = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                float[] f = new float[length * FEATURES];
                for (int k = 0; k < f.length; k++) {
                    f[k] = (float) r.nextDouble(-1, 1);
                }
                samples.add(new Sample(Tensor.of(f, length, FEATURES), Tensor.scalar(r.nextInt(CLASSES))));
            }
            out.addAll(Pipeline.fromList(samples).batch(BATCH).toList());
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"lstm", "gru", "simple_rnn", "bidirectional", "conv1d", "pooling", "attention"})
    void anOpenLengthTrainsAsAFixedLengthModelPerBatch(String which) {
        List<Batch> data = batches(7);
        for (boolean eager : new boolean[] {false, true}) {
            String mode = which + (eager ? " eager" : " compiled");
            RandomSeed.set(11);
            Model open = compiled(model(which, Shape.OPEN), eager);
            List<Tensor> weights = copies(open.getWeights());
            for (int step = 0; step < data.size(); step++) {
                Batch b = data.get(step);
                int length = b.features().shape().dim(1);
                Model fixed = compiled(model(which, length), eager);
                fixed.setWeights(copies(weights));
                assertSame(fixed.predict(b.features()), open.predict(b.features()), eager,
                        mode + " step " + step + " (length " + length + ") predictions");
                fixed.fit(Pipeline.fromList(List.of(b)), Fit.epochs(1).verbose(0));
                open.fit(Pipeline.fromList(List.of(b)), Fit.epochs(1).verbose(0));
                List<Tensor> want = fixed.getWeights();
                List<Tensor> got = open.getWeights();
                for (int w = 0; w < want.size(); w++) {
                    assertSame(want.get(w), got.get(w), eager, mode + " step " + step + " (length " + length
                            + ") weight " + w + " after the SGD step");
                }
                weights = copies(got);
            }
            if (!eager) {
                // Three lengths, each traced once for training and once for prediction, however often it came back.
                assertEquals(6, open.planTraces(), mode + ": one train and one predict plan per length");
            }
        }
    }

    /**
     * A per-step output (a tagger: {@code Embedding(maskZero) -> GRU(returnSequences) -> TimeDistributed(Dense)})
     * with per-step targets, padded to each batch's longest: each batch trains as the model declared for its length,
     * bit for bit, the padded steps masked out of the loss; the targets' shape is part of the plan's key.
     */
    @Test
    void aPerStepOutputTrainsOnTargetsOfEachBatchsLength() {
        SplittableRandom r = new SplittableRandom(3);
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            int[] ids = new int[2 + r.nextInt(9)];
            float[] tags = new float[ids.length];
            for (int t = 0; t < ids.length; t++) {
                ids[t] = 1 + r.nextInt(15);
                tags[t] = ids[t] % CLASSES;
            }
            samples.add(new Sample(Tensor.ofInts(ids, ids.length), Tensor.of(tags, tags.length)));
        }
        List<Batch> data = Pipeline.fromList(samples).paddedBatch(5).toList();
        java.util.function.IntFunction<Model> tagger = length -> {
            SymbolicTensor ids = Input.of(dev.brisk.tensor.DType.INT32, length);
            SymbolicTensor h = Layers.gru(6, true, false).apply(Layers.embedding(16, 4, true).apply(ids));
            return Model.of(List.of(ids), List.of(Layers.timeDistributed(Layers.dense(CLASSES)).apply(h)));
        };
        RandomSeed.set(5);
        Model open = compiled(tagger.apply(Shape.OPEN), false);
        java.util.Set<Integer> lengths = new java.util.HashSet<>();
        java.util.Set<Shape> shapes = new java.util.HashSet<>();
        for (int step = 0; step < data.size(); step++) {
            Batch b = data.get(step);
            int length = b.features().shape().dim(1);
            lengths.add(length);
            shapes.add(b.features().shape());
            assertEquals(Shape.of(b.features().shape().dim(0), length), b.labels().shape(),
                    "targets padded with the features");
            Model fixed = compiled(tagger.apply(length), false);
            fixed.setWeights(copies(open.getWeights()));
            fixed.fit(Pipeline.fromList(List.of(b)), Fit.epochs(1).verbose(0));
            open.fit(Pipeline.fromList(List.of(b)), Fit.epochs(1).verbose(0));
            List<Tensor> want = fixed.getWeights();
            for (int w = 0; w < want.size(); w++) {
                assertSame(want.get(w), open.getWeights().get(w), false, "step " + step + " (length " + length
                        + ") weight " + w);
            }
        }
        assertTrue(lengths.size() > 1, "batches of several lengths: " + lengths);
        assertEquals(shapes.size(), open.planTraces(), "one train plan per shape: each length, and the partial"
                + " last batch");
    }

    /** Layers whose weights or output sizes need the open axis' size refuse it when the model is built. */
    @Test
    void layersThatNeedTheSizeRefuseAnOpenAxisNamingLayerAndAxis() {
        IllegalArgumentException flatten = assertThrows(IllegalArgumentException.class, () -> Sequential.of(
                Layers.input(Shape.OPEN, FEATURES), new Flatten("flat"), Layers.dense(2)));
        assertContains(flatten.getMessage(), "layer 'flat' (Flatten)", "axis 1 of input (None, None, 4) is open");
        IllegalArgumentException dense = assertThrows(IllegalArgumentException.class, () -> Sequential.of(
                Layers.input(5, Shape.OPEN), new Dense(3, Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null, "last_open")));
        assertContains(dense.getMessage(), "layer 'last_open' (Dense)", "weight 'kernel'",
                "axis 2 of (None, 5, None)");
        IllegalArgumentException lstm = assertThrows(IllegalArgumentException.class, () -> Sequential.of(
                Layers.input(Shape.OPEN, Shape.OPEN), Layers.lstm(4)));
        assertContains(lstm.getMessage(), "(LSTM)", "weight 'kernel'", "axis 1 of (None, None, None), axis 2");
        IllegalArgumentException conv = assertThrows(IllegalArgumentException.class, () -> Sequential.of(
                Layers.input(Shape.OPEN, 8, 1), Layers.conv2d(2, 3, Activation.RELU)));
        assertContains(conv.getMessage(), "(Conv2D)", "axis 1 of input (None, None, 8, 1) is open");
    }

    /**
     * A learned positional embedding ({@code Embedding(maxlen)} over {@code positions()}) takes an open length up to
     * its table's size; a longer batch is an error naming the layer, the position and the table's size.
     */
    @Test
    void aPositionalEmbeddingTakesLengthsUpToItsTable() {
        for (boolean eager : new boolean[] {false, true}) {
            SymbolicTensor x = Input.of(Shape.OPEN, FEATURES);
            SymbolicTensor p = new Embedding(6, FEATURES, Initializer.glorotUniform(), false, "pos")
                    .apply(Layers.positions().apply(x));
            Model m = Model.of(List.of(x), List.of(Layers.dense(2).apply(
                    Layers.globalAveragePooling1d().apply(Layers.add().apply(x, p)))));
            m.runEagerly(eager);
            assertEquals(Shape.of(3, 2), m.predict(Tensor.zeros(3, 6, FEATURES)).shape());
            RuntimeException e = assertThrows(RuntimeException.class, () -> m.predict(Tensor.zeros(3, 7, FEATURES)));
            assertContains(messages(e), "'pos'", "6");
        }
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    private static Model compiled(Model m, boolean eager) {
        m.compile(Optimizers.sgd(0.5f), Losses.sparseCategoricalCrossentropy(true));
        m.runEagerly(eager);
        return m;
    }

    /**
     * Compiled: the same bits (the open model's plan for a length is traced from the graph the fixed model traces).
     * Eager: the same bits too, since eager ops run the same kernels on the same shapes.
     */
    private static void assertSame(Tensor want, Tensor got, boolean eager, String what) {
        assertEquals(want.shape(), got.shape(), what);
        for (int k = 0; k < want.size(); k++) {
            assertEquals(want.get(k), got.get(k), 0f, what + " element " + k + (eager ? " (eager)" : ""));
        }
    }

    private static List<Tensor> copies(List<Tensor> ts) {
        return ts.stream().map(Tensor::copy).toList();
    }

    static void assertContains(String message, String... parts) {
        for (String p : parts) {
            assertTrue(message.contains(p), "'" + p + "' in: " + message);
        }
    }
}
