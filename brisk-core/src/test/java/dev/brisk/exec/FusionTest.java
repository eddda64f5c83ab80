package dev.brisk.exec;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The planner's fusion: which chains become one call, and that the fused plan computes the same bits. */
class FusionTest {
    private final Kernels k = Backends.get();

    /** conv + bias + activation, max pooling, then a dense layer; the loss and the gradients are the outputs. */
    private record Net(Graph g, Node x, Node w, Node b, Node v, Node z, Node loss, List<Node> outputs) {
    }

    private static Net net(Kernels k, UnaryFn activation, boolean keepPreActivation) {
        return net(k, 2, 5, activation, keepPreActivation, true);
    }

    /**
     * A first layer: conv (one input channel, 32 filters) + bias + relu, max pooling, a dense layer; the outputs
     * are the loss and the gradients of the weights only, as in training (none for the image).
     */
    private static Net firstLayer(Kernels k) {
        return net(k, 1, 32, UnaryFn.RELU, false, false);
    }

    private static Net net(Kernels k, int channels, int filters, UnaryFn activation, boolean keepPreActivation,
                           boolean imageGradient) {
        Graph g = Graph.symbolic(k);
        Node x = g.input("x", Shape.of(3, 8, 8, channels));
        Node w = g.input("w", Shape.of(3, 3, channels, filters));
        Node b = g.input("b", Shape.of(filters));
        Node v = g.input("v", Shape.of(9 * filters, 3));
        Node z = g.add(g.conv2d(x, w, 1, 1, false), b);
        Node y = g.unary(activation, 0.1f, z);
        Node p = g.maxPool(y, new PoolAttrs(2, 2, 2, 2, false));
        Node logits = g.matmul(g.reshape(p, Shape.of(3, 9 * filters)), v);
        Node loss = g.sumAll(g.mul(logits, logits));
        List<Node> outputs = new ArrayList<>(List.of(loss));
        outputs.addAll(Autodiff.gradients(g, loss, imageGradient ? List.of(x, w, b, v) : List.of(w, b, v)));
        if (keepPreActivation) {
            outputs.add(z);
        }
        return new Net(g, x, w, b, v, z, loss, outputs);
    }

    private static List<float[]> run(Plan plan, Net net) {
        SplittableRandom r = new SplittableRandom(5);
        for (Node in : List.of(net.x(), net.w(), net.b(), net.v())) {
            Tensor t = plan.input(in);
            for (int i = 0; i < t.size(); i++) {
                // Some exact zeros, so that relu's gradient meets its boundary.
                t.set(i, r.nextInt(5) == 0 ? 0f : (float) r.nextGaussian());
            }
        }
        plan.run();
        List<float[]> out = new ArrayList<>();
        for (Node o : net.outputs()) {
            out.add(plan.output(o).toArray());
        }
        return out;
    }

    /** A network's plan with and without fusion. */
    private record Plans(Plan fused, Plan plain) {
    }

    /** Both plans of {@code net}, after checking that they compute the same bits. */
    private Plans compiledBothWays(Net net, String what) {
        Plan fused = Planner.compile(net.g().nodes(), net.outputs(), k, true);
        Plan plain = Planner.compile(net.g().nodes(), net.outputs(), k, false);
        List<float[]> expected = run(plain, net);
        List<float[]> actual = run(fused, net);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), what + ": output " + i);
        }
        return new Plans(fused, plain);
    }

    /** The fused calls of {@code plan}, each as its parts' op names joined by '+' (as profiles name them). */
    static List<String> fusedNames(Plan plan) {
        List<String> names = new ArrayList<>();
        for (Node n : plan.instructionNodes()) {
            if (n.attrs() instanceof FusedAttrs f) {
                StringBuilder sb = new StringBuilder();
                for (Node part : f.nodes()) {
                    sb.append(sb.isEmpty() ? "" : "+").append(part.op());
                }
                names.add(sb.toString());
            }
        }
        return names;
    }

    /**
     * Batch normalization's gradients under relu of that normalization recompute relu's input from x rather than
     * read relu's output (one stream fewer), with the bits of the unfused plan; under relu of a residual sum they
     * read relu's output, as that input is not the normalization's.
     */
    @Test
    void normalizationGradientsRecomputeTheirOwnRelu() {
        for (boolean residual : new boolean[] {false, true}) {
            Graph g = Graph.symbolic(k);
            Node x = g.input("x", Shape.of(40, 6, 6, 16));
            Node gamma = g.input("gamma", Shape.of(16));
            Node beta = g.input("beta", Shape.of(16));
            Node norm = g.batchNorm(x, g.batchNormStatistics(x), gamma, beta, 1e-3f, true);
            Node y = g.unary(UnaryFn.RELU, 0f, residual ? g.add(norm, x) : norm);
            Node loss = g.sumAll(g.mul(y, g.mul(y, y)));
            List<Node> outputs = new ArrayList<>(List.of(loss));
            outputs.addAll(Autodiff.gradients(g, loss, List.of(x, gamma, beta)));
            int underRelu = 0;
            int gated = 0;
            for (Node n : g.nodes()) {
                boolean gradient = n.op() == OpType.BATCH_NORM_GRAD || n.op() == OpType.BATCH_NORM_PARAM_GRAD;
                if (gradient && ChainLinks.gatesBatchNormGradient(n, n.input(0))) {
                    gated++;
                    underRelu += ChainLinks.normalizationUnderRelu(n, n.input(0)) == norm ? 1 : 0;
                }
            }
            assertEquals(residual ? 0 : 2, underRelu, "gradients under the normalization's own relu");
            assertEquals(2, gated, "gradients that take relu's gradient on the fly");
            Plan fused = Planner.compile(g.nodes(), outputs, k, true);
            Plan plain = Planner.compile(g.nodes(), outputs, k, false);
            List<float[]> expected = runInputs(plain, List.of(x, gamma, beta), outputs);
            List<float[]> actual = runInputs(fused, List.of(x, gamma, beta), outputs);
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), actual.get(i), (residual ? "residual" : "plain") + ": output " + i);
            }
        }
    }

    /** Runs {@code plan} on seeded inputs (some exact zeros), returning {@code outputs}' values. */
    private static List<float[]> runInputs(Plan plan, List<Node> inputs, List<Node> outputs) {
        SplittableRandom r = new SplittableRandom(9);
        for (Node in : inputs) {
            Tensor t = plan.input(in);
            for (int i = 0; i < t.size(); i++) {
                t.set(i, r.nextInt(5) == 0 ? 0f : (float) r.nextGaussian());
            }
        }
        plan.run();
        List<float[]> out = new ArrayList<>();
        for (Node o : outputs) {
            out.add(plan.output(o).toArray());
        }
        return out;
    }

    @Test
    void fusedPlanGivesTheSameBitsWithFewerCalls() {
        for (UnaryFn fn : new UnaryFn[] {UnaryFn.RELU, UnaryFn.TANH, UnaryFn.LEAKY_RELU, UnaryFn.GELU}) {
            Net net = net(k, fn, false);
            Plans plans = compiledBothWays(net, fn.toString());
            Plan fused = plans.fused();
            Plan plain = plans.plain();
            // The gradients of leaky relu and gelu read the activation's input, which must then be kept: the
            // chain stops before the activation. Relu's gradient can read its output instead; tanh's does.
            boolean wholeChain = fn == UnaryFn.RELU || fn == UnaryFn.TANH;
            // With relu, whose gradient the pool's cells decide, the vector backend also pools the convolution's
            // output image by image in cache: no buffer holds it.
            boolean pooled = fn == UnaryFn.RELU && k.poolsConvolutionInCache(
                    ConvGeometry.of(net.x().shape(), net.w().shape(), new ConvAttrs(1, 1, false)), fn,
                    PoolGeometry.of(net.z().shape(), new PoolAttrs(2, 2, 2, 2, false)));
            List<String> names = fusedNames(fused);
            String chain = pooled ? "CONV2D+BINARY+UNARY+MAX_POOL" : wholeChain ? "CONV2D+BINARY+UNARY" : "CONV2D+BINARY";
            assertTrue(names.contains(chain), fn + ": " + names);
            assertTrue(names.contains("MAX_POOL_GRAD+BINARY"), fn + ": " + names);
            // The loss's square and its gradient's products run as general elementwise chains besides.
            int elementwise = 0;
            for (String name : names) {
                elementwise += name.startsWith("UNARY") || name.startsWith("BINARY") ? name.split("\\+").length - 1 : 0;
            }
            assertEquals(plain.instructionCount() - (pooled ? 4 : wholeChain ? 3 : 2) - elementwise,
                    fused.instructionCount(), fn + ": " + names);
            assertTrue(pooled ? fused.plannedFloats() < plain.plannedFloats()
                    : fused.plannedFloats() <= plain.plannedFloats(), fn + ": " + fused.plannedFloats());
        }
    }

    /**
     * Where the backend reads a pooling's gradient from the pool's cells, a first convolution's bias and filter
     * gradients route it themselves: no call makes it and no buffer holds it, with the same bits.
     */
    @Test
    void aFirstConvolutionsGradientsRouteThePooledGradientThemselves() {
        Net net = firstLayer(k);
        Plans plans = compiledBothWays(net, "first layer");
        Plan fused = plans.fused();
        boolean routes = k.readsPooledGradient(
                ConvGeometry.of(net.x().shape(), net.w().shape(), new ConvAttrs(1, 1, false)),
                PoolGeometry.of(net.z().shape(), new PoolAttrs(2, 2, 2, 2, false)));
        List<String> names = fusedNames(fused);
        assertEquals(routes, names.contains("MAX_POOL_GRAD+BINARY+REDUCE"), names.toString());
        assertEquals(routes, names.contains("MAX_POOL_GRAD+BINARY+CONV2D_GRAD_FILTER"), names.toString());
        assertEquals(!routes, names.contains("MAX_POOL_GRAD+BINARY"), names.toString());
        if (routes) {
            // The pooling gradient's call and its 3x6x6x32 buffer are gone.
            assertTrue(fused.plannedFloats() <= plans.plain().plannedFloats() - 3 * 6 * 6 * 32, names.toString());
        }
    }

    @Test
    void anOutputIsNeverFoldedAway() {
        Net net = net(k, UnaryFn.RELU, true);
        Plan fused = compiledBothWays(net, "pre-activation kept").fused();
        // The pre-activation is kept, so the chain stops at the bias add and relu runs on its own.
        List<String> names = fusedNames(fused);
        assertTrue(names.contains("CONV2D+BINARY"), names.toString());
        assertTrue(fused.instructionNodes().stream().anyMatch(n -> n.op() == OpType.UNARY), names.toString());
    }

    @Test
    void fusionCanBeTurnedOffByTheSystemProperty() {
        Net net = net(k, UnaryFn.RELU, false);
        String before = System.getProperty(Fusion.PROPERTY);
        try {
            System.setProperty(Fusion.PROPERTY, "false");
            assertTrue(fusedNames(Planner.compile(net.g().nodes(), net.outputs(), k)).isEmpty());
        } finally {
            if (before == null) {
                System.clearProperty(Fusion.PROPERTY);
            } else {
                System.setProperty(Fusion.PROPERTY, before);
            }
        }
        assertTrue(!fusedNames(Planner.compile(net.g().nodes(), net.outputs(), k)).isEmpty());
    }
}
