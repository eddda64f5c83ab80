package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.awayFromZero;
import static dev.brisk.numerics.GradCheck.distinct;
import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.GradCheck.onGrid;
import static dev.brisk.numerics.GradCheck.uniform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finite-difference checks of the gradient rule of every differentiable op of the IR (see {@link GradCheck} for the
 * method and tolerances). Each test runs on the default (Vector API) kernels and on the scalar reference.
 */
class GradientCheckTest {

    // ---- the checker itself ----

    @Test
    void checkerAcceptsAKnownGradientAndRejectsAWrongOne() {
        Kernels k = GradCheck.kernels("scalar");
        Tensor x = gaussian(1, 1, 3, 4);
        GradCheck.op(k, "square", (g, xs) -> g.square(xs.get(0)), x);
        // A "gradient" that is off by a factor 2 must be caught: build y whose autodiff differs from its value.
        // y = x*x computed as mul(x, constant copy of x): autodiff sees only one factor, so d/dx is half the truth.
        Tensor t = x.copy();
        GradCheck.Problem half = (g, nodes) -> {
            Node xn = g.input("x", t);
            nodes.add(xn);
            return g.mul(xn, g.constant(t.copy()));
        };
        AssertionError e = assertThrows(AssertionError.class,
                () -> GradCheck.check(k, "half", List.of(t), half, GradCheck.EPS, GradCheck.ATOL));
        assertTrue(e.getMessage().contains("analytic"), e.getMessage());
    }

    @Test
    void directionalCheckerCatchesOneWrongElementOfThousands() {
        Kernels k = GradCheck.kernels("scalar");
        Tensor t = gaussian(2, 1, 40, 50);
        Tensor mask = Tensor.zeros(40, 50);
        mask.set(777, 1f);
        // y = x + mask * x * const(x): element 777 is x + x^2 whose derivative is 1 + 2x, but autodiff sees 1 + x
        GradCheck.Problem oneOff = (g, nodes) -> {
            Node xn = g.input("x", t);
            nodes.add(xn);
            return g.add(xn, g.mul(g.mul(xn, g.constant(mask)), g.constant(t.copy())));
        };
        t.set(777, 1.5f);
        AssertionError e = assertThrows(AssertionError.class, () -> GradCheck.directional(k, "one-off", List.of(t),
                oneOff, 1e-3, GradCheck.DIRECTIONAL_RTOL));
        assertTrue(e.getMessage().contains("directional"), e.getMessage());
        // and the same problem without the wrong element passes
        mask.set(777, 0f);
        GradCheck.directional(k, "one-off fixed", List.of(t), oneOff, 1e-3, GradCheck.DIRECTIONAL_RTOL);
    }

    // ---- elementwise ----

    /** Inputs that keep each function smooth over the difference step (no kinks, clip bounds or poles nearby). */
    private static Tensor domain(UnaryFn fn, long seed) {
        return switch (fn) {
            case LOG, SQRT, RSQRT -> uniform(seed, 0.4, 2.5, 3, 4);
            case RECIPROCAL, ABS, RELU, LEAKY_RELU -> awayFromZero(seed, 0.2, 2.0, 3, 4);
            case EXP -> uniform(seed, -2, 1.5, 3, 4);
            // alpha 0.1: the interior (0.15..0.85) passes the gradient, the outside (<0.05, >0.95) blocks it
            case CLIP_PROB -> Tensor.of(new float[] {0.2f, 0.5f, 0.83f, 0.31f, 0.02f, 0.97f, 0.66f, 0.15f,
                    0.42f, 0.04f, 0.99f, 0.7f}, 3, 4);
            default -> gaussian(seed, 1.2, 3, 4);
        };
    }

    private static float alpha(UnaryFn fn) {
        return switch (fn) {
            case LEAKY_RELU -> 0.2f;
            case SCALE -> -2.5f;
            case ADD_SCALAR -> 0.7f;
            case CLIP_PROB -> 0.1f;
            default -> 0f;
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void everyUnaryFunction(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Set<UnaryFn> checked = EnumSet.noneOf(UnaryFn.class);
        for (UnaryFn fn : UnaryFn.values()) {
            if (fn == UnaryFn.NON_FINITE) {
                continue; // an indicator with no gradient rule
            }
            float alpha = alpha(fn);
            GradCheck.op(k, "unary " + fn, (g, xs) -> g.unary(fn, alpha, xs.get(0)), domain(fn, fn.ordinal()));
            checked.add(fn);
        }
        assertEquals(UnaryFn.values().length - 1, checked.size());
        // NON_FINITE has no derivative and says so.
        Graph g = Graph.eager(k);
        Node x = g.input("x", gaussian(1, 1, 2));
        Node y = g.sumAll(g.unary(UnaryFn.NON_FINITE, x));
        assertThrows(UnsupportedOperationException.class, () -> Autodiff.gradients(g, y, List.of(x)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void leakyReluWithOtherSlopeAndScaleByZeroPointFive(String backend) {
        Kernels k = GradCheck.kernels(backend);
        GradCheck.op(k, "leaky 0.3", (g, xs) -> g.unary(UnaryFn.LEAKY_RELU, 0.3f, xs.get(0)),
                awayFromZero(3, 0.2, 2, 2, 5));
        GradCheck.op(k, "scale 0.5", (g, xs) -> g.scale(xs.get(0), 0.5f), gaussian(4, 1, 2, 5));
    }

    /** Shape pairs: same, row vector, (2,3,4)*(3,1), scalar either side, both broadcast. */
    private static final int[][][] SHAPE_PAIRS = {
        {{3, 4}, {3, 4}},
        {{3, 4}, {4}},
        {{4}, {3, 4}},
        {{2, 3, 4}, {3, 1}},
        {{3, 4}, {}},
        {{}, {3, 4}},
        {{2, 1, 4}, {3, 1}},
    };

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void everyBinaryFunctionWithBroadcasting(String backend) {
        Kernels k = GradCheck.kernels(backend);
        List<BinaryFn> fns = List.of(BinaryFn.ADD, BinaryFn.SUB, BinaryFn.MUL, BinaryFn.DIV, BinaryFn.MAX,
                BinaryFn.MIN);
        int seed = 100;
        for (BinaryFn fn : fns) {
            for (int[][] pair : SHAPE_PAIRS) {
                Tensor a;
                Tensor b;
                if (fn == BinaryFn.MAX || fn == BinaryFn.MIN) {
                    a = onGrid(seed++, 0.03, pair[0]);
                    b = onGrid(seed++, -0.02, pair[1]);
                } else if (fn == BinaryFn.DIV) {
                    a = gaussian(seed++, 1, pair[0]);
                    b = awayFromZero(seed++, 0.5, 1.5, pair[1]);
                } else {
                    a = gaussian(seed++, 1, pair[0]);
                    b = gaussian(seed++, 1, pair[1]);
                }
                String what = fn + " " + Shape.of(pair[0]) + " " + Shape.of(pair[1]);
                GradCheck.op(k, what, (g, xs) -> g.binary(fn, xs.get(0), xs.get(1)), a, b);
            }
        }
        // the same node on both sides: gradients from both inputs must add up
        GradCheck.op(k, "x*x via MUL", (g, xs) -> g.mul(xs.get(0), xs.get(0)), gaussian(7, 1, 3, 2));
        GradCheck.op(k, "x/x^2 via DIV", (g, xs) -> g.div(xs.get(0), g.square(xs.get(0))),
                awayFromZero(8, 0.5, 1.5, 3, 2));
    }

    // ---- linear algebra and shapes ----

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void matmulAllTransposeCombinations(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                Tensor a = ta ? gaussian(11, 1, 4, 3) : gaussian(11, 1, 3, 4);
                Tensor b = tb ? gaussian(12, 1, 5, 4) : gaussian(12, 1, 4, 5);
                Node[] out = new Node[1];
                GradCheck.op(k, "matmul ta=" + ta + " tb=" + tb, (g, xs) -> out[0] = g.matmul(xs.get(0), xs.get(1),
                        ta, tb), a, b);
                assertEquals(Shape.of(3, 5), out[0].shape());
            }
        }
        // one input only needs a gradient: x @ W with W a constant
        Tensor w = gaussian(13, 1, 4, 2);
        GradCheck.op(k, "matmul x@const", (g, xs) -> g.matmul(xs.get(0), g.constant(w)), gaussian(14, 1, 3, 4));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void reshapeTransposeBroadcast(String backend) {
        Kernels k = GradCheck.kernels(backend);
        GradCheck.op(k, "reshape", (g, xs) -> g.reshape(xs.get(0), Shape.of(4, 6)), gaussian(20, 1, 2, 3, 4));
        // reshape feeding a non-linear op, so a wrong gradient layout would show
        GradCheck.op(k, "reshape+square", (g, xs) -> g.square(g.reshape(xs.get(0), Shape.of(3, 8))),
                gaussian(21, 1, 2, 3, 4));
        GradCheck.op(k, "transpose 2d", (g, xs) -> g.transpose(xs.get(0)), gaussian(22, 1, 3, 5));
        GradCheck.op(k, "transpose 3d", (g, xs) -> g.transpose(xs.get(0)), gaussian(23, 1, 2, 3, 4));
        GradCheck.op(k, "transpose matmul", (g, xs) -> g.matmul(g.transpose(xs.get(0)), xs.get(1)),
                gaussian(24, 1, 4, 3), gaussian(25, 1, 4, 2));
        GradCheck.op(k, "broadcast (3,1)->(2,3,4)", (g, xs) -> g.broadcastTo(xs.get(0), Shape.of(2, 3, 4)),
                gaussian(26, 1, 3, 1));
        GradCheck.op(k, "broadcast (4)->(3,4)", (g, xs) -> g.broadcastTo(xs.get(0), Shape.of(3, 4)),
                gaussian(27, 1, 4));
        GradCheck.op(k, "broadcast ()->(2,3)", (g, xs) -> g.broadcastTo(xs.get(0), Shape.of(2, 3)),
                gaussian(28, 1));
        GradCheck.op(k, "broadcast (2,1,4)->(2,3,4)", (g, xs) -> g.broadcastTo(xs.get(0), Shape.of(2, 3, 4)),
                gaussian(29, 1, 2, 1, 4));
    }

    // ---- reductions ----

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void reduceSumAndMax(String backend) {
        Kernels k = GradCheck.kernels(backend);
        int[][] axesList = {{0}, {1}, {2}, {-1}, {0, 2}, {1, 2}, {0, 1, 2}};
        int seed = 40;
        for (int[] axes : axesList) {
            for (boolean keep : new boolean[] {false, true}) {
                String tag = java.util.Arrays.toString(axes) + " keepDims=" + keep;
                GradCheck.op(k, "sum " + tag, (g, xs) -> g.sum(xs.get(0), keep, axes), gaussian(seed++, 1, 2, 3, 4));
                // sum then a non-linearity, so each output element gets its own upstream gradient
                GradCheck.op(k, "sum^2 " + tag, (g, xs) -> g.square(g.sum(xs.get(0), keep, axes)),
                        gaussian(seed++, 0.5, 2, 3, 4));
                GradCheck.op(k, "max " + tag, (g, xs) -> g.reduce(ReduceFn.MAX, xs.get(0), keep, axes),
                        distinct(seed++, 0.05, 0.01, 2, 3, 4));
            }
        }
        GradCheck.op(k, "mean", (g, xs) -> g.mean(xs.get(0), false, 0, 1), gaussian(60, 1, 3, 4, 2));
        GradCheck.op(k, "meanAll", (g, xs) -> g.meanAll(xs.get(0)), gaussian(61, 1, 3, 4));
    }

    // ---- softmax and indexing ----

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void softmaxLogSoftmaxGather(String backend) {
        Kernels k = GradCheck.kernels(backend);
        GradCheck.op(k, "softmax", (g, xs) -> g.softmax(xs.get(0)), gaussian(70, 1.5, 4, 5));
        GradCheck.op(k, "softmax rank3", (g, xs) -> g.softmax(xs.get(0)), gaussian(71, 1.5, 2, 3, 4));
        GradCheck.op(k, "log-softmax", (g, xs) -> g.logSoftmax(xs.get(0)), gaussian(72, 1.5, 4, 5));
        GradCheck.op(k, "log-softmax rank3", (g, xs) -> g.logSoftmax(xs.get(0)), gaussian(73, 1.5, 2, 3, 4));
        // large logits: the stable form must still give the right gradient
        GradCheck.op(k, "log-softmax large", (g, xs) -> g.logSoftmax(xs.get(0)),
                GradCheck.uniform(74, 40, 44, 3, 4));
        Tensor idx = Tensor.of(new float[] {2, 0, 4, 4}, 4);
        GradCheck.op(k, "gatherRows", (g, xs) -> g.gatherRows(xs.get(0), g.input("idx", idx)),
                gaussian(75, 1, 4, 5));
        GradCheck.op(k, "gatherRows(logSoftmax)", (g, xs) -> g.gatherRows(g.logSoftmax(xs.get(0)),
                g.input("idx", idx)), gaussian(76, 1, 4, 5));
        GradCheck.op(k, "sparseSoftmaxCrossEntropy", (g, xs) -> g.sparseSoftmaxCrossEntropy(xs.get(0),
                g.input("idx", idx)), gaussian(77, 1.5, 4, 5));
        // rows wider than a vector take the vector kernel's other path
        Tensor wideIdx = Tensor.of(new float[] {0, 19, 33}, 3);
        GradCheck.op(k, "sparseSoftmaxCrossEntropy wide", (g, xs) -> g.sparseSoftmaxCrossEntropy(xs.get(0),
                g.input("idx", wideIdx)), gaussian(78, 1.5, 3, 37));
    }

    // ---- convolution and pooling ----

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void conv2d(String backend) {
        Kernels k = GradCheck.kernels(backend);
        record Case(String name, int[] x, int[] w, int stride, boolean same, int[] out) {
        }
        List<Case> cases = List.of(
                new Case("valid 1ch", new int[] {2, 5, 5, 1}, new int[] {3, 3, 1, 2}, 1, false, new int[] {2, 3, 3, 2}),
                new Case("valid multi", new int[] {2, 5, 4, 3}, new int[] {3, 2, 3, 2}, 1, false,
                        new int[] {2, 3, 3, 2}),
                new Case("same", new int[] {1, 5, 5, 2}, new int[] {3, 3, 2, 3}, 1, true, new int[] {1, 5, 5, 3}),
                new Case("same 2x2 kernel", new int[] {1, 4, 4, 2}, new int[] {2, 2, 2, 2}, 1, true,
                        new int[] {1, 4, 4, 2}),
                new Case("same stride2 asym", new int[] {2, 6, 5, 2}, new int[] {3, 3, 2, 3}, 2, true,
                        new int[] {2, 3, 3, 3}),
                new Case("valid stride2", new int[] {1, 7, 6, 2}, new int[] {3, 3, 2, 2}, 2, false,
                        new int[] {1, 3, 2, 2}));
        int seed = 80;
        for (Case c : cases) {
            Node[] out = new Node[1];
            GradCheck.op(k, "conv2d " + c.name, (g, xs) -> out[0] = g.conv2d(xs.get(0), xs.get(1), c.stride,
                    c.stride, c.same), gaussian(seed++, 1, c.x), gaussian(seed++, 0.5, c.w));
            assertEquals(Shape.of(c.out), out[0].shape(), c.name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void pooling(String backend) {
        Kernels k = GradCheck.kernels(backend);
        record Case(String name, int[] x, PoolAttrs a, int[] out) {
        }
        List<Case> cases = List.of(
                new Case("valid 2/2", new int[] {2, 4, 4, 2}, new PoolAttrs(2, 2, 2, 2, false), new int[] {2, 2, 2, 2}),
                new Case("valid 3/2 odd", new int[] {1, 5, 5, 2}, new PoolAttrs(3, 3, 2, 2, false),
                        new int[] {1, 2, 2, 2}),
                new Case("same 2/2 odd", new int[] {1, 5, 5, 2}, new PoolAttrs(2, 2, 2, 2, true),
                        new int[] {1, 3, 3, 2}),
                new Case("same 3/1", new int[] {1, 4, 3, 2}, new PoolAttrs(3, 3, 1, 1, true), new int[] {1, 4, 3, 2}),
                new Case("same 3/2 asym", new int[] {2, 6, 5, 1}, new PoolAttrs(3, 2, 2, 2, true),
                        new int[] {2, 3, 3, 1}));
        int seed = 90;
        for (Case c : cases) {
            Node[] out = new Node[1];
            GradCheck.op(k, "maxPool " + c.name, (g, xs) -> out[0] = g.maxPool(xs.get(0), c.a),
                    distinct(seed++, 0.05, 0.013, c.x));
            assertEquals(Shape.of(c.out), out[0].shape(), c.name);
            GradCheck.op(k, "avgPool " + c.name, (g, xs) -> g.avgPool(xs.get(0), c.a), gaussian(seed++, 1, c.x));
        }
    }

    // ---- concat and dropout ----

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void concat(String backend) {
        Kernels k = GradCheck.kernels(backend);
        GradCheck.op(k, "concat axis 1", (g, xs) -> g.concat(1, xs), gaussian(100, 1, 2, 3, 4),
                gaussian(101, 1, 2, 2, 4));
        GradCheck.op(k, "concat last (3 parts)", (g, xs) -> g.concat(2, xs), gaussian(102, 1, 2, 3, 4),
                gaussian(103, 1, 2, 3, 1), gaussian(104, 1, 2, 3, 2));
        GradCheck.op(k, "concat 2d last", (g, xs) -> g.concat(1, xs), gaussian(105, 1, 3, 2),
                gaussian(106, 1, 3, 4));
        GradCheck.op(k, "concat axis 0", (g, xs) -> g.concat(0, xs), gaussian(107, 1, 2, 3),
                gaussian(108, 1, 1, 3));
        // concat followed by a non-linearity: each slice must get its own part of dy
        GradCheck.op(k, "square(concat)", (g, xs) -> g.square(g.concat(1, xs)), gaussian(109, 1, 2, 3),
                gaussian(110, 1, 2, 2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void dropoutWithFixedSeed(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Node[] out = new Node[1];
        GradCheck.op(k, "dropout 0.4", (g, xs) -> out[0] = g.dropout(xs.get(0), 0.4f,
                g.input("seed", Tensor.scalar(17f)), 99L), gaussian(120, 1, 6, 8));
        float[] y = out[0].value().toArray();
        int zeros = 0;
        for (float v : y) {
            zeros += v == 0 ? 1 : 0;
        }
        assertTrue(zeros > 5 && zeros < 43, "mask drops some but not all of 48: " + zeros);
    }
}
