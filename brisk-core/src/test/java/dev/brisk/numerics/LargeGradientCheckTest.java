package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.awayFromZero;
import static dev.brisk.numerics.GradCheck.directionalOp;
import static dev.brisk.numerics.GradCheck.distinct;
import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.GradCheck.onGrid;
import static dev.brisk.numerics.GradCheck.uniform;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Directional finite-difference checks on tensors big enough to run the vectorised main loops, tiling and
 * parallel splits of the kernels (the element-wise checks use tiny shapes that mostly exercise loop tails). See
 * {@link GradCheck#directional}.
 */
class LargeGradientCheckTest {
    private static final double EPS = 1e-3;

    private static Tensor domain(UnaryFn fn, long seed, int... dims) {
        return switch (fn) {
            case LOG, SQRT, RSQRT -> uniform(seed, 0.4, 2.5, dims);
            case RECIPROCAL, ABS, RELU, LEAKY_RELU -> awayFromZero(seed, 0.05, 2.0, dims);
            case EXP -> uniform(seed, -2, 1.5, dims);
            case CLIP_PROB -> {
                Tensor t = uniform(seed, 0.01, 0.99, dims);
                for (int i = 0; i < t.size(); i++) {
                    float v = t.get(i);
                    if (Math.abs(v - 0.1f) < 0.02f || Math.abs(v - 0.9f) < 0.02f) {
                        t.set(i, v + 0.04f); // keep clear of the clip bounds
                    }
                }
                yield t;
            }
            default -> gaussian(seed, 1.2, dims);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void elementwise(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (UnaryFn fn : UnaryFn.values()) {
            if (fn == UnaryFn.NON_FINITE) {
                continue;
            }
            float alpha = switch (fn) {
                case LEAKY_RELU -> 0.2f;
                case SCALE -> 1.7f;
                case ADD_SCALAR -> -0.3f;
                case CLIP_PROB -> 0.1f;
                default -> 0f;
            };
            directionalOp(k, "large unary " + fn, EPS, (g, xs) -> g.unary(fn, alpha, xs.get(0)),
                    domain(fn, 300 + fn.ordinal(), 37, 29));
        }
        int[][][] pairs = {{{64, 65}, {64, 65}}, {{64, 65}, {65}}, {{17, 33, 9}, {33, 1}}, {{1000}, {}},
            {{9, 1, 70}, {5, 1}}};
        int seed = 400;
        for (BinaryFn fn : List.of(BinaryFn.ADD, BinaryFn.SUB, BinaryFn.MUL, BinaryFn.DIV, BinaryFn.MAX,
                BinaryFn.MIN)) {
            for (int[][] pair : pairs) {
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
                directionalOp(k, "large " + fn + " " + java.util.Arrays.deepToString(pair), EPS,
                        (g, xs) -> g.binary(fn, xs.get(0), xs.get(1)), a, b);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void matmulShapesAndReductions(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                Tensor a = ta ? gaussian(1, 1, 70, 33) : gaussian(1, 1, 33, 70);
                Tensor b = tb ? gaussian(2, 1, 41, 70) : gaussian(2, 1, 70, 41);
                directionalOp(k, "large matmul " + ta + "/" + tb, EPS, (g, xs) -> g.matmul(xs.get(0), xs.get(1),
                        ta, tb), a, b);
            }
        }
        directionalOp(k, "large transpose", EPS, (g, xs) -> g.square(g.transpose(xs.get(0))),
                gaussian(3, 1, 5, 33, 47));
        directionalOp(k, "large broadcastTo", EPS, (g, xs) -> g.square(g.broadcastTo(xs.get(0),
                dev.brisk.tensor.Shape.of(9, 37, 21))), gaussian(4, 1, 37, 1));
        int[][] axes = {{0}, {1}, {2}, {0, 2}, {1, 2}, {0, 1, 2}};
        int seed = 10;
        for (int[] ax : axes) {
            for (boolean keep : new boolean[] {false, true}) {
                directionalOp(k, "large sum " + java.util.Arrays.toString(ax) + keep, EPS,
                        (g, xs) -> g.square(g.sum(xs.get(0), keep, ax)), gaussian(seed++, 0.3, 9, 37, 21));
                directionalOp(k, "large max " + java.util.Arrays.toString(ax) + keep, EPS,
                        (g, xs) -> g.reduce(ReduceFn.MAX, xs.get(0), keep, ax), distinct(seed++, 0.02, 0.003, 9, 37, 21));
            }
        }
        directionalOp(k, "large softmax", EPS, (g, xs) -> g.softmax(xs.get(0)), gaussian(30, 2, 7, 67));
        directionalOp(k, "large log-softmax", EPS, (g, xs) -> g.logSoftmax(xs.get(0)), gaussian(31, 2, 7, 67));
        Tensor idx = GradCheck.labels(32, 40, 67);
        directionalOp(k, "large gather(logSoftmax)", EPS, (g, xs) -> g.gatherRows(g.logSoftmax(xs.get(0)),
                g.input("idx", idx)), gaussian(33, 2, 40, 67));
        directionalOp(k, "large concat", EPS, (g, xs) -> g.square(g.concat(1, xs)), gaussian(34, 1, 6, 17, 9),
                gaussian(35, 1, 6, 40, 9));
        directionalOp(k, "large dropout", EPS, (g, xs) -> g.dropout(xs.get(0), 0.3f,
                g.input("seed", Tensor.scalar(5f)), 3L), gaussian(36, 1, 40, 70));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void convolutionAndPooling(String backend) {
        Kernels k = GradCheck.kernels(backend);
        int[][] conv = { // n, h, w, c, kh, kw, o, stride, same
            {2, 12, 11, 8, 3, 3, 16, 1, 0}, {2, 12, 11, 8, 3, 3, 16, 1, 1}, {2, 13, 12, 6, 3, 3, 10, 2, 1},
            {1, 15, 14, 5, 5, 5, 12, 2, 0}, {3, 9, 9, 16, 1, 1, 17, 1, 0}, {2, 10, 10, 3, 2, 2, 8, 3, 1}};
        int seed = 50;
        for (int[] c : conv) {
            directionalOp(k, "large conv " + java.util.Arrays.toString(c), EPS,
                    (g, xs) -> g.conv2d(xs.get(0), xs.get(1), c[7], c[7], c[8] == 1),
                    gaussian(seed++, 1, c[0], c[1], c[2], c[3]), gaussian(seed++, 0.3, c[4], c[5], c[3], c[6]));
        }
        List<PoolAttrs> pools = List.of(new PoolAttrs(2, 2, 2, 2, false), new PoolAttrs(3, 3, 2, 2, true),
                new PoolAttrs(3, 3, 1, 1, true), new PoolAttrs(2, 2, 3, 3, false), new PoolAttrs(2, 3, 2, 1, true));
        for (PoolAttrs p : pools) {
            directionalOp(k, "large maxPool " + p, EPS, (g, xs) -> g.maxPool(xs.get(0), p),
                    distinct(seed++, 0.01, 0.002, 2, 13, 11, 17));
            directionalOp(k, "large avgPool " + p, EPS, (g, xs) -> g.avgPool(xs.get(0), p),
                    gaussian(seed++, 1, 2, 13, 11, 17));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void layers(String backend) {
        Kernels k = GradCheck.kernels(backend);
        RandomSeed.set(9);
        checkLayer(k, "large dense gelu", Layers.dense(48, Activation.GELU), gaussian(60, 1, 32, 64));
        checkLayer(k, "large dense softmax", Layers.dense(20, Activation.SOFTMAX), gaussian(61, 1, 16, 40));
        checkLayer(k, "large conv same s2", Layers.conv2d(12, 3, 2, Padding.SAME, Activation.TANH),
                gaussian(62, 1, 2, 11, 10, 7));
        Tensor bx = gaussian(63, 1, 32, 24);
        checkLayer(k, "large batchnorm", Layers.batchNormalization(), bx);
        checkLayer(k, "large batchnorm conv", Layers.batchNormalization(), gaussian(64, 1, 4, 7, 6, 9));
        checkLayer(k, "large global avg", Layers.globalAveragePooling2d(), gaussian(65, 1, 3, 7, 6, 19));
    }

    /** Directional check of a layer with respect to its input and all trainable weights (randomised first). */
    private static void checkLayer(Kernels k, String what, Layer layer, Tensor x) {
        Tensor in = x.copy();
        Graph warm = Graph.eager(k);
        layer.invoke(warm, List.of(warm.input("x", in)), new CallContext(true, warm.constant(0f)));
        List<Tensor> params = new ArrayList<>();
        params.add(in);
        int s = 70;
        for (var v : layer.trainableWeights()) {
            Tensor r = gaussian(s++, 0.3, v.shape().dims());
            for (int i = 0; i < r.size(); i++) {
                r.set(i, r.get(i) + v.value().get(i)); // keep e.g. gamma near 1
            }
            v.assign(r);
            params.add(v.value());
        }
        GradCheck.Problem p = (g, nodes) -> {
            Node xn = g.input("x", in);
            Node y = layer.invoke(g, List.of(xn), new CallContext(true, g.input("seed", Tensor.scalar(1f))));
            nodes.add(xn);
            layer.trainableWeights().forEach(v -> nodes.add(g.variable(v)));
            return y;
        };
        GradCheck.directional(k, what, params, p, EPS, GradCheck.DIRECTIONAL_RTOL);
    }
}
