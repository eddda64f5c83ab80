package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.data.Sample;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Variable-length token sequences end to end: a {@link Pipeline} of INT32 sequences of 1 to {@value #LENGTH} ids,
 * padded by {@code paddedBatch} to the model's declared length, trains an {@code Embedding(maskZero) -> LSTM/GRU ->
 * Dense} model with {@code fit}. The padded steps must not count: a padded batch gives every sequence the output it
 * has alone, unpadded, in a model of its own length, and the batch's gradient is the mean of the sequences' own
 * gradients. Compiled and eager training give the same numbers.
 */
class VariableLengthTrainingTest {
    private static final int VOCAB = 13;
    private static final int LENGTH = 9;
    private static final int CLASSES = 3;

    /** Sequences of 1 to LENGTH ids in [1, VOCAB); the class is the first id mod CLASSES. */
    private static List<Sample> samples(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Sample> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int[] ids = new int[1 + r.nextInt(LENGTH)];
            for (int t = 0; t < ids.length; t++) {
                ids[t] = 1 + r.nextInt(VOCAB - 1);
            }
            out.add(new Sample(Tensor.ofInts(ids, ids.length), Tensor.scalar(ids[0] % CLASSES)));
        }
        return out;
    }

    private static Model model(boolean gru, int length) {
        return Sequential.of(
                Layers.input(DType.INT32, length),
                Layers.embedding(VOCAB, 5, true),
                gru ? Layers.gru(7) : Layers.lstm(7),
                Layers.dense(CLASSES));
    }

    private static Pipeline<Batch> padded(List<Sample> samples, int batch) {
        return Pipeline.fromList(samples).paddedBatch(batch, LENGTH, false);
    }

    @Test
    void fitOnPaddedVariableLengthsIsTheSameCompiledAndEager() {
        List<Sample> data = samples(90, 1);
        for (boolean gru : new boolean[] {false, true}) {
            List<List<Double>> losses = new ArrayList<>();
            List<List<Tensor>> weights = new ArrayList<>();
            for (boolean eager : new boolean[] {false, true}) {
                RandomSeed.set(3);
                Model m = model(gru, LENGTH);
                m.compile(Optimizers.adam(3e-2f), Losses.sparseCategoricalCrossentropy(true));
                m.runEagerly(eager);
                // A shuffle in the pipeline, seeded: both runs see the same batches in the same order.
                History h = m.fit(Pipeline.fromList(data).shuffle(90, 5).paddedBatch(16, LENGTH, false),
                        Fit.epochs(8).verbose(0));
                losses.add(h.get("loss"));
                weights.add(m.getWeights());
            }
            String what = gru ? "GRU" : "LSTM";
            List<Double> loss = losses.get(0);
            assertTrue(loss.get(loss.size() - 1) < 0.6 * loss.get(0), what + " loss fell " + loss);
            for (int e = 0; e < loss.size(); e++) {
                assertEquals(loss.get(e), losses.get(1).get(e), 1e-4 * Math.max(1, loss.get(e)),
                        what + " epoch " + e + " loss, compiled against eager");
            }
            assertClose(weights.get(0), weights.get(1), 1e-4f, what + " weights, compiled against eager");
        }
    }

    @Test
    void paddedStepsChangeNeitherOutputsNorGradients() {
        List<Sample> batch = samples(6, 2);
        for (boolean gru : new boolean[] {false, true}) {
            String what = gru ? "GRU" : "LSTM";
            RandomSeed.set(9);
            Model reference = model(gru, LENGTH);
            List<Tensor> start = copies(reference.getWeights());
            // Every sequence alone, unpadded, in a model of its own length with the same weights.
            Tensor padded = padded(batch, batch.size()).toList().get(0).features();
            Tensor batchOutputs = reference.predict(padded);
            List<Tensor> meanGradient = null;
            for (int i = 0; i < batch.size(); i++) {
                Tensor ids = batch.get(i).features();
                Model alone = model(gru, ids.shape().dim(0));
                alone.setWeights(copies(start));
                Tensor one = alone.predict(ids.reshape(Shape.of(1, ids.shape().dim(0))));
                for (int c = 0; c < CLASSES; c++) {
                    assertEquals(one.get(c), batchOutputs.get(i * CLASSES + c), 1e-5f,
                            what + " sequence " + i + " (length " + ids.shape().dim(0) + ") output " + c);
                }
                List<Tensor> g = gradientsOfOneStep(alone, Pipeline.fromList(List.of(batch.get(i))).paddedBatch(1),
                        false);
                meanGradient = meanGradient == null ? g : add(meanGradient, g);
            }
            final List<Tensor> sum = meanGradient;
            List<Tensor> mean = scaled(sum, 1f / batch.size());
            for (boolean eager : new boolean[] {false, true}) {
                Model m = model(gru, LENGTH);
                m.setWeights(copies(start));
                List<Tensor> g = gradientsOfOneStep(m, padded(batch, batch.size()), eager);
                assertClose(mean, g, 1e-5f, what + (eager ? " eager" : " compiled")
                        + " padded-batch gradient against the mean of the unpadded sequences' gradients");
            }
        }
    }

    /**
     * A model with an open length ({@code Input(shape=(None,))}) fed {@code paddedBatch(size)}, each batch padded to
     * its own longest sequence: the same model gives every sequence, alone at its own length, the output it has in
     * the padded batch, and the batch's gradient is the mean of the sequences' own, compiled and eager.
     */
    @Test
    void anOpenLengthTakesEachBatchsLongestAndPaddedStepsStillChangeNothing() {
        List<Sample> batch = samples(6, 4);
        int longest = batch.stream().mapToInt(s -> s.features().shape().dim(0)).max().orElseThrow();
        for (boolean gru : new boolean[] {false, true}) {
            for (boolean eager : new boolean[] {false, true}) {
                String what = (gru ? "GRU" : "LSTM") + (eager ? " eager" : " compiled");
                RandomSeed.set(9);
                Model open = model(gru, Shape.OPEN);
                open.runEagerly(eager);
                Tensor padded = Pipeline.fromList(batch).paddedBatch(batch.size()).toList().get(0).features();
                assertEquals(Shape.of(batch.size(), longest), padded.shape(), "padded to the batch's longest");
                Tensor batchOutputs = open.predict(padded);
                List<Tensor> sum = null;
                for (int i = 0; i < batch.size(); i++) {
                    Tensor ids = batch.get(i).features();
                    Tensor one = open.predict(ids.reshape(Shape.of(1, ids.shape().dim(0))));
                    for (int c = 0; c < CLASSES; c++) {
                        assertEquals(one.get(c), batchOutputs.get(i * CLASSES + c), 1e-5f,
                                what + " sequence " + i + " (length " + ids.shape().dim(0) + ") output " + c);
                    }
                    List<Tensor> g = gradientsOfOneStep(open, Pipeline.fromList(List.of(batch.get(i)))
                            .paddedBatch(1), eager);
                    sum = sum == null ? g : add(sum, g);
                }
                List<Tensor> g = gradientsOfOneStep(open, Pipeline.fromList(batch).paddedBatch(batch.size()), eager);
                assertClose(scaled(sum, 1f / batch.size()), g, 1e-5f, what
                        + " padded-batch gradient against the mean of the unpadded sequences' gradients");
            }
        }
    }

    /** A model declared for one length refuses a batch of another, naming the shapes and how to pad. */
    @Test
    void aBatchOfAnotherLengthIsRefusedSayingHowToPad() {
        List<Sample> data = samples(20, 3);
        for (boolean eager : new boolean[] {false, true}) {
            Model m = model(false, LENGTH);
            m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
            m.runEagerly(eager);
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> m.fit(Pipeline.fromList(data).paddedBatch(4), Fit.epochs(1).verbose(0)));
            String msg = messages(e);
            assertTrue(msg.contains("expects data of shape (None, 9) but a batch has shape (4, 6)")
                    && msg.contains("paddedBatch(size, 9, dropRemainder)"), (eager ? "eager: " : "compiled: ") + msg);
        }
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    /**
     * The gradient of one training step on {@code data} (one batch), read from the change of the weights under
     * SGD with learning rate 1: {@code w - (w - g) = g}. The model's weights are left as they were.
     */
    private static List<Tensor> gradientsOfOneStep(Model m, Pipeline<Batch> data, boolean eager) {
        List<Tensor> before = copies(m.getWeights());
        m.compile(Optimizers.sgd(1f), Losses.sparseCategoricalCrossentropy(true));
        m.runEagerly(eager);
        m.fit(data, Fit.epochs(1).verbose(0));
        List<Tensor> after = m.getWeights();
        List<Tensor> g = new ArrayList<>();
        for (int w = 0; w < before.size(); w++) {
            float[] d = new float[before.get(w).size()];
            for (int k = 0; k < d.length; k++) {
                d[k] = before.get(w).get(k) - after.get(w).get(k);
            }
            g.add(Tensor.of(d, before.get(w).shape().dims()));
        }
        m.setWeights(before);
        return g;
    }

    private static List<Tensor> copies(List<Tensor> ts) {
        return ts.stream().map(Tensor::copy).toList();
    }

    private static List<Tensor> add(List<Tensor> a, List<Tensor> b) {
        return map(a.size(), w -> {
            float[] d = new float[a.get(w).size()];
            for (int k = 0; k < d.length; k++) {
                d[k] = a.get(w).get(k) + b.get(w).get(k);
            }
            return Tensor.of(d, a.get(w).shape().dims());
        });
    }

    private static List<Tensor> scaled(List<Tensor> a, float s) {
        return map(a.size(), w -> {
            float[] d = new float[a.get(w).size()];
            for (int k = 0; k < d.length; k++) {
                d[k] = a.get(w).get(k) * s;
            }
            return Tensor.of(d, a.get(w).shape().dims());
        });
    }

    private static List<Tensor> map(int n, IntFunction<Tensor> f) {
        List<Tensor> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(f.apply(i));
        }
        return out;
    }

    private static void assertClose(List<Tensor> a, List<Tensor> b, float tolerance, String what) {
        assertEquals(a.size(), b.size(), what);
        for (int w = 0; w < a.size(); w++) {
            assertEquals(a.get(w).shape(), b.get(w).shape(), what + " weight " + w);
            for (int k = 0; k < a.get(w).size(); k++) {
                float x = a.get(w).get(k);
                assertEquals(x, b.get(w).get(k), tolerance * Math.max(1f, Math.abs(x)),
                        what + ": weight " + w + " element " + k);
            }
        }
    }
}
