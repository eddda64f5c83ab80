package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Graph;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.ops.Node;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The padding mask of {@code Embedding(maskZero)} travels through the layers that keep it in Keras (Dense, Dropout,
 * Activation, LayerNormalization, Add, MultiHeadAttention) to the layers that use it: a left-padded and a
 * right-padded sequence give the LSTM at the end the same state, which only holds if its kernel skips the padding;
 * attention ignores padded keys and queries' junk.
 */
class MaskPropagationTest {
    private static final int STEPS = 6;

    /** Rows "a b c 0 0 0" and "0 0 0 a b c" for three token triples. */
    private static Tensor[] padded() {
        int[][] real = {{3, 7, 2}, {5, 1, 9}, {8, 8, 4}};
        int[] right = new int[real.length * STEPS];
        int[] left = new int[real.length * STEPS];
        for (int r = 0; r < real.length; r++) {
            for (int t = 0; t < 3; t++) {
                right[r * STEPS + t] = real[r][t];
                left[r * STEPS + STEPS - 3 + t] = real[r][t];
            }
        }
        return new Tensor[] {Tensor.ofInts(right, real.length, STEPS), Tensor.ofInts(left, real.length, STEPS)};
    }

    private static void assertSameRows(Tensor a, Tensor b, String what) {
        assertEquals(a.shape(), b.shape(), what);
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i), b.get(i), 1e-5f, what + " element " + i);
        }
    }

    @Test
    void theMaskPassesThroughStepwiseLayersToTheLstm() {
        RandomSeed.set(31);
        Model m = Sequential.of(
                Layers.input(DType.INT32, STEPS),
                Layers.embedding(12, 6, true),
                Layers.dense(8, Activation.RELU),
                Layers.dropout(0.3f),
                Layers.activation(Activation.TANH),
                Layers.layerNormalization(),
                Layers.lstm(4));
        Tensor[] x = padded();
        assertSameRows(m.predict(x[0]), m.predict(x[1]), "left and right padding");
        // Without the mask the padded steps would move the state: a model without maskZero differs.
        RandomSeed.set(31);
        Model unmasked = Sequential.of(Layers.input(DType.INT32, STEPS), Layers.embedding(12, 6, false),
                Layers.dense(8, Activation.RELU), Layers.lstm(4));
        Tensor a = unmasked.predict(x[0]);
        Tensor b = unmasked.predict(x[1]);
        boolean differs = false;
        for (int i = 0; i < a.size(); i++) {
            differs |= Math.abs(a.get(i) - b.get(i)) > 1e-4f;
        }
        assertEquals(true, differs, "the test would be vacuous");
    }

    @Test
    void addAndsItsInputsMasks() {
        RandomSeed.set(32);
        SymbolicTensor in = Input.of(DType.INT32, STEPS);
        SymbolicTensor e = Layers.embedding(12, 6, true).apply(in);
        SymbolicTensor sum = Layers.add().apply(Layers.dense(5).apply(e), Layers.dense(5).apply(e));
        Model m = Model.of(in, Layers.gru(3).apply(sum));
        Tensor[] x = padded();
        assertSameRows(m.predict(x[0]), m.predict(x[1]), "left and right padding through Add");
        Graph g = Graph.eager(Backends.get());
        Node ids = g.input("ids", x[0]);
        Node emb = Layers.embedding(12, 2, true).invoke(g, List.of(ids), new CallContext(false,
                g.input("seed", Tensor.scalar(0f))));
        Node plain = g.input("plain", Tensor.zeros(Shape.of(3, STEPS, 2)));
        Node both = Layers.add().invoke(g, List.of(emb, plain), new CallContext(false, g.input("seed",
                Tensor.scalar(0f))));
        assertNotNull(g.maskOf(both), "one masked input masks the sum");
        Node neither = Layers.add().invoke(g, List.of(plain, plain), new CallContext(false, g.input("seed",
                Tensor.scalar(0f))));
        assertNull(g.maskOf(neither));
    }

    @Test
    void attentionIgnoresPaddedKeysAndKeepsTheQueryMask() {
        RandomSeed.set(33);
        int dim = 4;
        MultiHeadAttention padded = Layers.multiHeadAttention(2, 3);
        MultiHeadAttention alone = Layers.multiHeadAttention(2, 3);
        SplittableRandom r = new SplittableRandom(5);
        Tensor x = Tensor.zeros(Shape.of(2, STEPS, dim)); // padded steps hold junk, not zeros
        for (int i = 0; i < x.size(); i++) {
            x.set(i, (float) r.nextGaussian());
        }
        int[] lengths = {4, 2};
        Tensor mask = Tensor.zeros(Shape.of(2, STEPS));
        for (int b = 0; b < 2; b++) {
            for (int t = 0; t < lengths[b]; t++) {
                mask.set(b * STEPS + t, 1f);
            }
        }
        Graph g = Graph.eager(Backends.get());
        Node xn = g.input("x", x);
        g.setMask(xn, g.constant(mask));
        Node y = padded.invoke(g, List.of(xn, xn), new CallContext(false, g.input("seed", Tensor.scalar(0f))));
        assertNotNull(g.maskOf(y), "the output keeps the query's mask");
        for (int b = 0; b < 2; b++) {
            int len = lengths[b];
            Tensor xb = Tensor.zeros(Shape.of(1, len, dim));
            for (int i = 0; i < len * dim; i++) {
                xb.set(i, x.get(b * STEPS * dim + i));
            }
            Graph h = Graph.eager(Backends.get());
            Node xs = h.input("x", xb);
            CallContext ctx = new CallContext(false, h.input("seed", Tensor.scalar(0f)));
            if (!alone.isBuilt() || b > 0) {
                alone = Layers.multiHeadAttention(2, 3);
                alone.invoke(h, List.of(xs, xs), ctx);
                for (int w = 0; w < alone.weights().size(); w++) {
                    alone.weights().get(w).assign(padded.weights().get(w).value().copy());
                }
            }
            Tensor expected = alone.invoke(h, List.of(xs, xs), ctx).value();
            for (int i = 0; i < len * dim; i++) {
                assertEquals(expected.get(i), y.value().get(b * STEPS * dim + i), 1e-5f,
                        "sample " + b + " element " + i);
            }
        }
    }
}
