package dev.brisk.graph;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.exec.KernelBinder;
import dev.brisk.backend.KernelTimer;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Eager graphs run the planner's fused chains as one call inside {@link Graph#fusing}, with the same bits. */
class EagerFusionTest {
    private final Kernels k = Backends.get();

    private static Tensor random(long seed, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        Tensor t = Tensor.zeros(dims);
        for (int i = 0; i < t.size(); i++) {
            // Some exact zeros, so that relu's gradient meets its boundary.
            t.set(i, r.nextInt(5) == 0 ? 0f : (float) r.nextGaussian());
        }
        return t;
    }

    /** The kernel calls an eager graph made, by name ("CONV2D+BINARY+UNARY" for a fused chain). */
    private static final class Calls implements KernelTimer {
        final List<String> names = new ArrayList<>();

        @Override
        public void record(Node node, long startNanos, long endNanos) {
            if (node.attrs() instanceof FusedAttrs f) {
                StringBuilder sb = new StringBuilder();
                for (Node part : f.nodes()) {
                    sb.append(sb.isEmpty() ? "" : "+").append(part.op());
                }
                names.add(sb.toString());
            } else {
                names.add(node.op().toString());
            }
        }
    }

    /** conv + bias + activation, max pooling, then a dense layer; returns the loss and its gradients. */
    private static List<float[]> convNet(Graph g, UnaryFn activation, List<Node> keep) {
        Node x = g.input("x", random(1, 3, 8, 8, 2));
        Node w = g.input("w", random(2, 3, 3, 2, 5));
        Node b = g.input("b", random(3, 5));
        Node v = g.input("v", random(4, 45, 3));
        Node c = g.input("c", random(5, 3));
        Node y = g.fusing(() -> {
            Node z = g.add(g.conv2d(x, w, 1, 1, false), b);
            return g.unary(activation, 0.1f, z);
        });
        Node p = g.maxPool(y, new PoolAttrs(2, 2, 2, 2, false));
        Node logits = g.fusing(() -> g.add(g.matmul(g.reshape(p, Shape.of(3, 45)), v), c));
        Node loss = g.sumAll(g.mul(logits, logits));
        List<Node> outputs = new ArrayList<>(List.of(loss));
        outputs.addAll(Autodiff.gradients(g, loss, List.of(x, w, b, v, c)));
        keep.addAll(List.of(y, logits));
        List<float[]> values = new ArrayList<>();
        for (Node o : outputs) {
            values.add(o.value().toArray());
        }
        return values;
    }

    private static <T> T withoutFusion(Supplier<T> body) {
        String before = System.getProperty("brisk.fusion");
        System.setProperty("brisk.fusion", "false");
        try {
            return body.get();
        } finally {
            if (before == null) {
                System.clearProperty("brisk.fusion");
            } else {
                System.setProperty("brisk.fusion", before);
            }
        }
    }

    @Test
    void fusedChainsGiveTheSameBitsInFewerCalls() {
        for (UnaryFn fn : new UnaryFn[] {UnaryFn.RELU, UnaryFn.TANH, UnaryFn.GELU}) {
            Calls plainCalls = new Calls();
            List<float[]> plain = withoutFusion(
                    () -> convNet(Graph.eager(k, null, plainCalls), fn, new ArrayList<>()));
            Calls fusedCalls = new Calls();
            List<float[]> fused = convNet(Graph.eager(k, null, fusedCalls), fn, new ArrayList<>());
            for (int i = 0; i < plain.size(); i++) {
                assertArrayEquals(plain.get(i), fused.get(i), fn + ": output " + i);
            }
            // gelu's gradient reads its input, which must then have a value: the chain stops before gelu.
            boolean wholeChain = fn != UnaryFn.GELU;
            List<String> names = fusedCalls.names;
            assertTrue(names.contains(wholeChain ? "CONV2D+BINARY+UNARY" : "CONV2D+BINARY"), fn + ": " + names);
            assertTrue(names.contains("MATMUL+BINARY"), fn + ": " + names);
            assertTrue(names.contains("MAX_POOL_GRAD+BINARY"), fn + ": " + names);
            assertEquals(plainCalls.names.size() - (wholeChain ? 4 : 3), names.size(), fn + ": " + names);
        }
    }

    /** The same x (4x6), w (6x5) and b (5) in every graph: a dense layer's inputs. */
    private static Node[] denseInputs(Graph g) {
        return new Node[] {g.input("x", random(1, 4, 6)), g.input("w", random(2, 6, 5)), g.input("b", random(3, 5))};
    }

    @Test
    void aFoldedNodeReadLaterIsComputedThen() {
        Graph g = Graph.eager(k);
        Node[] in = denseInputs(g);
        Node[] parts = new Node[2];
        Node y = g.fusing(() -> {
            parts[0] = g.matmul(in[0], in[1]);
            parts[1] = g.add(parts[0], in[2]);
            return g.unary(UnaryFn.RELU, parts[1]);
        });
        assertNotNull(y.value());
        assertNull(parts[0].value(), "folded into the fused call");
        Node doubled = g.scale(parts[1], 2f);

        Graph plain = Graph.eager(k);
        Node[] plainIn = denseInputs(plain);
        Node pre = plain.add(plain.matmul(plainIn[0], plainIn[1]), plainIn[2]);
        assertArrayEquals(pre.value().toArray(), parts[1].value().toArray());
        assertArrayEquals(plain.scale(pre, 2f).value().toArray(), doubled.value().toArray());
        assertArrayEquals(plain.unary(UnaryFn.RELU, pre).value().toArray(), y.value().toArray());
    }

    @Test
    void aChainReadInsideBeforeItEndsRunsNodeByNode() {
        Graph g = Graph.eager(k);
        Node[] in = denseInputs(g);
        Node[] product = new Node[1];
        Node sum = g.fusing(() -> {
            product[0] = g.matmul(in[0], in[1]);
            Node biased = g.add(product[0], in[2]);
            return g.add(biased, product[0]); // reads the product, which a fused call would not keep
        });
        assertNotNull(product[0].value());
        Graph plain = Graph.eager(k);
        Node[] plainIn = denseInputs(plain);
        Node p = plain.matmul(plainIn[0], plainIn[1]);
        Node expected = plain.add(plain.add(p, plainIn[2]), p);
        assertArrayEquals(expected.value().toArray(), sum.value().toArray());
    }

    @Test
    void aNodeReturnedFromTheBlockHasItsValue() {
        Graph g = Graph.eager(k);
        Node[] in = denseInputs(g);
        Node[] relu = new Node[1];
        Node pre = g.fusing(() -> {
            Node z = g.add(g.matmul(in[0], in[1]), in[2]);
            relu[0] = g.unary(UnaryFn.RELU, z);
            return z;
        });
        assertNotNull(pre.value());
        assertNotNull(relu[0].value());
    }

    @Test
    void aFoldedNodeCannotBeComputedAfterAVariableChanged() {
        Graph g = Graph.eager(k);
        Variable wv = new Variable("w", random(2, 6, 5), true);
        Node x = g.input("x", random(1, 4, 6));
        Node[] product = new Node[1];
        g.fusing(() -> {
            product[0] = g.matmul(x, g.variable(wv));
            return g.unary(UnaryFn.RELU, product[0]);
        });
        g.assign(wv, g.constant(Tensor.zeros(6, 5)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> g.scale(product[0], 2f));
        assertTrue(e.getMessage().contains("fused"), e.getMessage());
    }

    /**
     * A first convolution (of the data) with bias and relu in one block, the max pooling of its output in the
     * enclosing block (as {@code Model.forward} runs a layer and the next), then a dense layer; returns the loss and
     * the weights' gradients.
     */
    private static List<float[]> pooledFirstLayer(Graph g, boolean readActivationAfter) {
        Node x = g.input("x", random(1, 3, 8, 8, 2));
        Node w = g.input("w", random(2, 3, 3, 2, 32));
        Node b = g.input("b", random(3, 32));
        Node v = g.input("v", random(4, 288, 3));
        Node c = g.input("c", random(5, 3));
        Node[] activation = new Node[1];
        Node logits = g.fusing(() -> {
            activation[0] = g.fusing(() -> g.unary(UnaryFn.RELU, g.add(g.conv2d(x, w, 1, 1, false), b)));
            Node p = g.maxPool(activation[0], new PoolAttrs(2, 2, 2, 2, false));
            return g.fusing(() -> g.add(g.matmul(g.reshape(p, Shape.of(3, 288)), v), c));
        });
        Node loss = g.sumAll(g.mul(logits, logits));
        List<Node> outputs = new ArrayList<>(List.of(loss));
        outputs.addAll(Autodiff.gradients(g, loss, List.of(w, b, v, c)));
        if (readActivationAfter) {
            outputs.add(g.scale(activation[0], 2f));
        }
        List<float[]> values = new ArrayList<>();
        for (Node o : outputs) {
            values.add(o.value().toArray());
        }
        return values;
    }

    private boolean poolsInCache() {
        return k.poolsConvolutionInCache(
                ConvGeometry.of(Shape.of(3, 8, 8, 2), Shape.of(3, 3, 2, 32), new ConvAttrs(1, 1, false)),
                UnaryFn.RELU, PoolGeometry.of(Shape.of(3, 6, 6, 32), new PoolAttrs(2, 2, 2, 2, false)));
    }

    private boolean routesPooledGradient() {
        return k.readsPooledGradient(
                ConvGeometry.of(Shape.of(3, 8, 8, 2), Shape.of(3, 3, 2, 32), new ConvAttrs(1, 1, false)),
                PoolGeometry.of(Shape.of(3, 6, 6, 32), new PoolAttrs(2, 2, 2, 2, false)));
    }

    @Test
    void aConvolutionsChainTakesThePoolingOfTheNextLayerAndItsGradientsReadTheCells() {
        for (boolean readActivationAfter : new boolean[] {false, true}) {
            List<float[]> plain = withoutFusion(() -> pooledFirstLayer(Graph.eager(k), readActivationAfter));
            Calls calls = new Calls();
            List<float[]> fused = pooledFirstLayer(Graph.eager(k, null, calls), readActivationAfter);
            for (int i = 0; i < plain.size(); i++) {
                // The last output, relu's value read after the pooled call, is computed then from its inputs.
                assertArrayEquals(plain.get(i), fused.get(i), "output " + i + " " + calls.names);
            }
            List<String> names = calls.names;
            boolean pooled = poolsInCache();
            assertEquals(pooled, names.contains("CONV2D+BINARY+UNARY+MAX_POOL"), names.toString());
            assertEquals(!pooled, names.contains("CONV2D+BINARY+UNARY"), names.toString());
            boolean routes = pooled && routesPooledGradient();
            assertEquals(routes, names.contains("MAX_POOL_GRAD+BINARY+REDUCE"), names.toString());
            assertEquals(routes, names.contains("MAX_POOL_GRAD+BINARY+CONV2D_GRAD_FILTER"), names.toString());
            assertEquals(!routes, names.contains("MAX_POOL_GRAD+BINARY"), names.toString());
        }
    }

    @Test
    void aSettledNodeKeepsItsValueAndThePoolingRunsOnItsOwn() {
        Calls calls = new Calls();
        Graph g = Graph.eager(k, null, calls);
        Node x = g.input("x", random(1, 3, 8, 8, 2));
        Node w = g.input("w", random(2, 3, 3, 2, 32));
        Node b = g.input("b", random(3, 32));
        Node[] activation = new Node[1];
        Node pooled = g.fusing(() -> {
            activation[0] = g.fusing(() -> g.unary(UnaryFn.RELU, g.add(g.conv2d(x, w, 1, 1, false), b)));
            g.settle(activation[0]);
            assertNotNull(activation[0].value(), "settled inside the outer block");
            return g.maxPool(activation[0], new PoolAttrs(2, 2, 2, 2, false));
        });
        assertNotNull(pooled.value());
        assertEquals(List.of("CONV2D+BINARY+UNARY", "MAX_POOL"), calls.names);
    }
}
