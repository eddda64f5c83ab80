package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * General elementwise chains in compiled plans: which nodes become one call, that the call computes the bits of
 * the separate kernels on both backends, and that the chain's inner values get no buffer.
 */
class ElementwiseFusionTest {
    private static final List<Kernels> BACKENDS = List.of(Backends.get(), Backends.scalar());

    /** A graph's inputs with the values every plan gets, and the nodes it returns. */
    private record Net(Graph g, List<Node> inputs, List<Tensor> values, List<Node> outputs) {
    }

    /** One step of a chain built on the running value {@code x}, with the net's other inputs at hand. */
    private interface Op {
        Node apply(Graph g, Node x, Node full, Node row, Node scalar);
    }

    private static final List<Op> OPS = List.of(
            (g, x, full, row, scalar) -> g.unary(UnaryFn.SIGMOID, x),
            (g, x, full, row, scalar) -> g.add(x, row),
            (g, x, full, row, scalar) -> g.mul(full, x),
            (g, x, full, row, scalar) -> g.unary(UnaryFn.TANH, x),
            (g, x, full, row, scalar) -> g.sub(scalar, x),
            (g, x, full, row, scalar) -> g.scale(x, 0.75f),
            (g, x, full, row, scalar) -> g.mul(x, row),
            (g, x, full, row, scalar) -> g.unary(UnaryFn.EXP, x),
            (g, x, full, row, scalar) -> g.div(x, g.unary(UnaryFn.ABS, full)),
            (g, x, full, row, scalar) -> g.binary(BinaryFn.MAX, x, scalar),
            (g, x, full, row, scalar) -> g.mul(x, x));

    /**
     * {@code ops} applied in turn to x of {@code shape}; {@code rowShape} is the bias or scale read along the last
     * axis. The chain's inputs are made by ops of their own (an abs, a square), so that they are computed values.
     */
    private static Net chain(Kernels k, Shape shape, Shape rowShape, List<Op> ops) {
        Graph g = Graph.symbolic(k);
        Node x = g.input("x", shape);
        Node f = g.input("f", shape);
        Node b = g.input("b", rowShape);
        Node s = g.input("s", Shape.of(1));
        Node y = x;
        for (Op op : ops) {
            y = op.apply(g, y, f, b, s);
        }
        List<Node> inputs = List.of(x, f, b, s);
        return new Net(g, inputs, values(inputs, 3), List.of(y));
    }

    private static List<Tensor> values(List<Node> inputs, long seed) {
        List<Tensor> values = new ArrayList<>();
        for (Node in : inputs) {
            values.add(random(in.shape(), seed++));
        }
        return values;
    }

    /** Gaussian values with some exact zeros, where relu, max and abs meet their boundaries. */
    private static Tensor random(Shape shape, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Tensor t = Tensor.zeros(shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, r.nextInt(7) == 0 ? 0f : (float) r.nextGaussian());
        }
        return t;
    }

    private static List<float[]> run(Plan plan, Net net) {
        for (int i = 0; i < net.inputs().size(); i++) {
            if (!plan.hasInput(net.inputs().get(i))) {
                continue;
            }
            Tensor t = plan.input(net.inputs().get(i));
            Tensor v = net.values().get(i);
            for (int e = 0; e < t.size(); e++) {
                t.set(e, v.get(e));
            }
        }
        plan.run();
        List<float[]> out = new ArrayList<>();
        for (Node o : net.outputs()) {
            out.add(plan.output(o).toArray());
        }
        return out;
    }

    private static void assertSameBits(List<float[]> expected, List<float[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int o = 0; o < expected.size(); o++) {
            float[] e = expected.get(o);
            float[] a = actual.get(o);
            assertEquals(e.length, a.length, what + ": output " + o);
            for (int i = 0; i < e.length; i++) {
                if (Float.floatToRawIntBits(e[i]) != Float.floatToRawIntBits(a[i])) {
                    throw new AssertionError(what + ": output " + o + " element " + i + ": " + a[i] + ", not "
                            + e[i]);
                }
            }
        }
    }

    /** The fused and plain plans of {@code net}, after checking that they compute the same bits. */
    private static Plan[] bothWays(Net net, Kernels k, String what) {
        Plan fused = Planner.compile(net.g().nodes(), net.outputs(), k, true);
        Plan plain = Planner.compile(net.g().nodes(), net.outputs(), k, false);
        assertSameBits(run(plain, net), run(fused, net), what + " on " + k.name());
        return new Plan[] {fused, plain};
    }

    @Test
    void chainsOfTwoToSixOpsAreOneCallWithTheSameBits() {
        // Sizes: whole vectors; a row shorter than a vector; one split over threads whose blocks start mid-row;
        // a row longer than a block, read in place.
        Shape[][] shapes = {
                {Shape.of(4, 16), Shape.of(16)},
                {Shape.of(5, 3, 7), Shape.of(1, 1, 7)},
                {Shape.of(2000, 37), Shape.of(37)},
                {Shape.of(3, 5001), Shape.of(5001)}};
        for (Kernels k : BACKENDS) {
            for (Shape[] s : shapes) {
                for (int length = 2; length <= 6; length++) {
                    for (int start = 0; start < OPS.size(); start++) {
                        List<Op> ops = new ArrayList<>();
                        for (int i = 0; i < length; i++) {
                            ops.add(OPS.get((start + i * 3) % OPS.size()));
                        }
                        Net net = chain(k, s[0], s[1], ops);
                        String what = s[0] + " ops from " + start + " x" + length;
                        Plan[] p = bothWays(net, k, what);
                        // One op builds two nodes (the abs of an input); every other one is a step of the chain.
                        assertEquals(1, FusionTest.fusedNames(p[0]).size(), what + ": " + FusionTest.fusedNames(p[0]));
                        assertTrue(p[0].instructionCount() < p[1].instructionCount(), what);
                        assertTrue(p[0].plannedFloats() < p[1].plannedFloats(), what);
                    }
                }
            }
        }
    }

    @Test
    void swishIsOneCallAndItsInnerValueHasNoBuffer() {
        for (Kernels k : BACKENDS) {
            Net net = chain(k, Shape.of(64, 32), Shape.of(32), List.of(
                    (g, x, f, b, s) -> g.mul(x, g.unary(UnaryFn.SIGMOID, x))));
            Plan[] p = bothWays(net, k, "swish");
            assertEquals(List.of("UNARY+BINARY"), FusionTest.fusedNames(p[0]));
            assertEquals(p[1].instructionCount() - 1, p[0].instructionCount());
            // sigmoid(x) is never written: one 64 x 32 buffer fewer.
            assertEquals(p[1].plannedFloats() - 64 * 32, p[0].plannedFloats());
        }
    }

    @Test
    void aValueReadTwiceOrReturnedSplitsTheChain() {
        for (Kernels k : BACKENDS) {
            Graph g = Graph.symbolic(k);
            Node x = g.input("x", Shape.of(8, 24));
            Node b = g.input("b", Shape.of(24));
            Node e = g.unary(UnaryFn.EXP, g.scale(x, 0.5f));
            Node y = g.unary(UnaryFn.TANH, g.add(e, b));
            // e is read by the add and by a sum: it must be written, and the chain splits there.
            Node total = g.sum(e, false, 0);
            List<Node> inputs = List.of(x, b);
            Net net = new Net(g, inputs, values(inputs, 4), List.of(y, total));
            Plan[] p = bothWays(net, k, "second reader");
            assertEquals(List.of("UNARY+UNARY", "BINARY+UNARY"), FusionTest.fusedNames(p[0]));
            // A value that is an output splits it too.
            Net returned = new Net(g, inputs, net.values(), List.of(y, e));
            p = bothWays(returned, k, "returned");
            assertEquals(List.of("UNARY+UNARY", "BINARY+UNARY"), FusionTest.fusedNames(p[0]));
        }
    }

    @Test
    void gradientChainsFuseWithTheSameBits() {
        for (Kernels k : BACKENDS) {
            Graph g = Graph.symbolic(k);
            Node x = g.input("x", Shape.of(16, 20));
            Node w = g.input("w", Shape.of(20, 12));
            Node b = g.input("b", Shape.of(12));
            Node z = g.add(g.matmul(x, w), b);
            // swish(z) * 1.5 + 0.25, squared and summed: the backward pass multiplies by derivatives and adds
            // the gradient's two contributions to z.
            Node y = g.unary(UnaryFn.ADD_SCALAR, 0.25f, g.scale(g.mul(z, g.unary(UnaryFn.SIGMOID, z)), 1.5f));
            Node loss = g.sum(g.square(y), false, 0, 1);
            List<Node> outputs = new ArrayList<>(List.of(loss));
            outputs.addAll(Autodiff.gradients(g, loss, List.of(w, b)));
            List<Node> inputs = List.of(x, w, b);
            Plan[] p = bothWays(new Net(g, inputs, values(inputs, 5), outputs), k, "swish gradients");
            assertTrue(FusionTest.fusedNames(p[0]).stream().filter(c -> !c.startsWith("MATMUL")).count() >= 2,
                    FusionTest.fusedNames(p[0]).toString());
        }
    }

    @Test
    void eagerOpsGiveTheBitsOfTheCompiledChain() {
        for (Kernels k : BACKENDS) {
            Function<Graph, List<Node>> build = g -> {
                Node x = g.input("x", random(Shape.of(33, 18), 6));
                Node b = g.input("b", random(Shape.of(18), 7));
                Node y = g.unary(UnaryFn.TANH, g.mul(g.add(x, b), g.unary(UnaryFn.SIGMOID, x)));
                return List.of(x, b, g.scale(y, -2f));
            };
            Graph eager = Graph.eager(k);
            List<Node> e = build.apply(eager);
            Graph symbolic = Graph.symbolic(k);
            List<Node> s = build.apply(symbolic);
            Net net = new Net(symbolic, s.subList(0, 2), List.of(e.get(0).value(), e.get(1).value()),
                    List.of(s.get(2)));
            Plan fused = Planner.compile(symbolic.nodes(), net.outputs(), k, true);
            assertEquals(List.of("BINARY+BINARY+UNARY+UNARY"), FusionTest.fusedNames(fused));
            assertSameBits(List.of(e.get(2).value().toArray()), run(fused, net), "eager on " + k.name());
        }
    }
}
