package dev.brisk.numerics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.exec.Plan;
import dev.brisk.exec.Planner;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * BatchNormalization against a float64 reference ({@link BatchNormReference}) at realistic sizes, after a
 * convolution (32 images of 14x14x16: 6272 values per channel) and after a Dense layer, with pre-activations around
 * 3 (a mean several times the spread, where float sums lose digits), in training and in inference mode, eager and
 * compiled, on the default and the scalar kernels. The tolerances are what float32 PyTorch reaches on the same
 * problem (its CPU kernels sum in double): BatchNormalization alone, fed the float values its input layer computed,
 * within 1e-6 of each tensor's largest value (PyTorch: up to 2.7e-7; the former composition of float reductions:
 * up to 5.8e-6); the whole layer pair, whose convolution or product adds its own float32 error, within 1e-5.
 */
class BatchNormPrecisionTest {
    /** BatchNormalization's own error, relative to the largest reference value of each tensor. */
    private static final double LAYER_TOLERANCE = 1e-6;
    /** The error of the input layer and BatchNormalization together (gradients of the input layer's weights). */
    private static final double PAIR_TOLERANCE = 1e-5;
    private static final double EPSILON = 1e-3;
    private static final double MOMENTUM = 0.99;

    private static double[] normal(SplittableRandom r, int n, double mean, double sd) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (mean + sd * r.nextGaussian());
        }
        return v;
    }

    private static Tensor tensor(double[] v, int... dims) {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            f[i] = (float) v[i];
        }
        return Tensor.of(f, dims);
    }

    static double[] doubles(Tensor t) {
        double[] v = new double[t.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = t.get(i);
        }
        return v;
    }

    static double maxAbs(double[] v) {
        double m = 0;
        for (double d : v) {
            m = Math.max(m, Math.abs(d));
        }
        return m;
    }

    /** {@code max |actual - expected| <= tolerance * scale}, with the worst element in the message. */
    static void assertClose(double[] expected, Tensor actual, double scale, double tolerance, String what) {
        double worst = 0;
        int at = 0;
        for (int i = 0; i < expected.length; i++) {
            double err = Math.abs(actual.get(i) - expected[i]);
            if (!(err <= worst)) {
                worst = err;
                at = i;
            }
        }
        double relative = worst / scale;
        assertTrue(relative <= tolerance, String.format("%s: element %d: expected %.9g, got %.9g: error %.3g of the "
                + "scale %.4g, over the tolerance %.1g", what, at, expected[at], actual.get(at), relative, scale,
                tolerance));
    }

    private static void assertClose(double[] expected, Tensor actual, double tolerance, String what) {
        assertClose(expected, actual, maxAbs(expected), tolerance, what);
    }

    /** The data of one check: the input layer's input and weights, BatchNormalization's weights and dy. */
    private record Problem(Tensor x, Layer first, double[] firstInput, double[] kernel, double[] bias, int channels,
                           double[] gamma, double[] beta, double[] movingMean, double[] movingVariance,
                           double[] dy, int[] outDims) {
    }

    private static Problem conv() {
        SplittableRandom r = new SplittableRandom(11);
        int n = 32;
        int hw = 14;
        int ci = 8;
        int co = 16;
        double[] x = new double[n * hw * hw * ci];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) r.nextDouble();
        }
        double[] kernel = normal(r, 9 * ci * co, 0.05, 0.2);
        double[] bias = normal(r, co, 3, 1);
        Conv2D conv = Layers.conv2d(co, 3, 1, Padding.SAME, Activation.LINEAR);
        return new Problem(tensor(x, n, hw, hw, ci), conv, x, kernel, bias, co, normal(r, co, 1, 0.2),
                normal(r, co, 0, 0.2), normal(r, co, 3, 0.5), normal(r, co, 1, 0.2), normal(r, n * hw * hw * co, 0, 1),
                new int[] {n, hw, hw, co});
    }

    private static Problem dense() {
        SplittableRandom r = new SplittableRandom(12);
        int n = 32;
        int in = 64;
        int out = 32;
        double[] x = normal(r, n * in, 3, 1);
        double[] kernel = normal(r, in * out, 0.02, 0.15);
        double[] bias = normal(r, out, 3, 1);
        return new Problem(tensor(x, n, in), Layers.dense(out), x, kernel, bias, out, normal(r, out, 1, 0.2),
                normal(r, out, 0, 0.2), normal(r, out, 6, 1), normal(r, out, 1.5, 0.2), normal(r, n * out, 0, 1),
                new int[] {n, out});
    }

    /** The input layer's float64 output. */
    private static double[] firstLayer(Problem p) {
        if (p.first() instanceof Conv2D) {
            int[] d = p.x().shape().dims();
            return BatchNormReference.conv3x3Same(p.firstInput(), d[0], d[1], d[2], d[3], p.kernel(), p.bias(),
                    p.channels());
        }
        int[] d = p.x().shape().dims();
        return BatchNormReference.dense(p.firstInput(), d[0], d[1], p.kernel(), p.bias(), p.channels());
    }

    /** The float64 gradient of the input layer's kernel for its output gradient {@code dz}. */
    private static double[] kernelGradient(Problem p, double[] dz) {
        int[] d = p.x().shape().dims();
        if (p.first() instanceof Conv2D) {
            return BatchNormReference.conv3x3SameFilterGradient(p.firstInput(), d[0], d[1], d[2], d[3], dz,
                    p.channels());
        }
        return BatchNormReference.denseKernelGradient(p.firstInput(), d[0], d[1], dz, p.channels());
    }

    private static BatchNormReference.Pass reference(Problem p, double[] z, boolean training) {
        return training ? BatchNormReference.training(z, p.channels(), p.gamma(), p.beta(), EPSILON, p.dy())
                : BatchNormReference.inference(z, p.channels(), p.gamma(), p.beta(), EPSILON, p.movingMean(),
                p.movingVariance(), p.dy());
    }

    /** Builds both layers and sets their weights and moving statistics. */
    private static BatchNormalization setUp(Kernels k, Problem p) {
        int c = p.channels();
        TorchFixturesTest.build(k, p.first(), p.x());
        List<dev.brisk.ops.Variable> w = p.first().trainableWeights();
        w.get(0).assign(tensor(p.kernel(), w.get(0).value().shape().dims()));
        w.get(1).assign(tensor(p.bias(), c));
        BatchNormalization bn = Layers.batchNormalization();
        TorchFixturesTest.build(k, bn, Tensor.zeros(p.outDims()));
        bn.gamma().assign(tensor(p.gamma(), c));
        bn.beta().assign(tensor(p.beta(), c));
        bn.movingMean().assign(tensor(p.movingMean(), c));
        bn.movingVariance().assign(tensor(p.movingVariance(), c));
        return bn;
    }

    /**
     * One pass of {@code f = sum(dy * bn(first(x)))} and its gradients, eager or compiled: the input layer's output
     * z, y, f, then the gradients of z, the input layer's kernel and bias, gamma and beta.
     */
    static List<Tensor> run(Kernels k, boolean compiled, boolean training, Layer first, Layer bn, Tensor x,
                                    Tensor dy) {
        Graph g = compiled ? Graph.symbolic(k) : Graph.eager(k);
        Node xn = g.input("x", x);
        Node seed = g.input("seed", Tensor.scalar(0f));
        CallContext ctx = new CallContext(training, seed);
        Node z = first.invoke(g, List.of(xn), ctx);
        Node y = bn.invoke(g, List.of(z), ctx);
        Node dyn = g.input("dy", dy);
        Node f = g.sumAll(g.mul(y, dyn));
        List<Node> wrt = new ArrayList<>();
        wrt.add(z);
        first.trainableWeights().forEach(v -> wrt.add(g.variable(v)));
        bn.trainableWeights().forEach(v -> wrt.add(g.variable(v)));
        List<Node> outputs = new ArrayList<>(List.of(z, y, f));
        outputs.addAll(Autodiff.gradients(g, f, wrt));
        if (!compiled) {
            return outputs.stream().map(o -> o.value().copy()).toList();
        }
        Plan plan = Planner.compile(g.nodes(), outputs, k);
        for (Node in : List.of(xn, dyn, seed)) {
            if (plan.hasInput(in)) {
                plan.feed(in, in == xn ? x : in == dyn ? dy : Tensor.scalar(0f));
            }
        }
        plan.run();
        return outputs.stream().map(o -> plan.output(o).copy()).toList();
    }

    private static void check(String mode, Problem p, boolean training) {
        String[] parts = mode.split("/");
        Kernels k = GradCheck.kernels(parts[1]);
        RandomSeed.set(7);
        BatchNormalization bn = setUp(k, p);
        String what = p.first().getClass().getSimpleName() + " + BatchNormalization, "
                + (training ? "training, " : "inference, ") + mode;
        List<Tensor> out = run(k, parts[0].equals("compiled"), training, p.first(), bn, p.x(),
                tensor(p.dy(), p.outDims()));
        // The pair against the float64 reference of the float32 inputs.
        double[] z = firstLayer(p);
        BatchNormReference.Pass exact = reference(p, z, training);
        double dbetaScale = maxAbs(exact.dbeta());
        assertClose(exact.y(), out.get(1), PAIR_TOLERANCE, what + ": y");
        assertClose(exact.dz(), out.get(3), PAIR_TOLERANCE, what + ": d(input layer output)");
        assertClose(kernelGradient(p, exact.dz()), out.get(4), PAIR_TOLERANCE, what + ": d(input layer kernel)");
        // In training the bias gradient is zero (the mean takes the bias away): compare with the sums' scale.
        assertClose(BatchNormReference.channelSums(exact.dz(), p.channels()), out.get(5),
                training ? dbetaScale : maxAbs(BatchNormReference.channelSums(exact.dz(), p.channels())),
                PAIR_TOLERANCE, what + ": d(input layer bias)");
        assertClose(exact.dgamma(), out.get(6), PAIR_TOLERANCE, what + ": dgamma");
        assertClose(exact.dbeta(), out.get(7), PAIR_TOLERANCE, what + ": dbeta");
        // BatchNormalization alone: the reference of the float values the input layer gave it.
        BatchNormReference.Pass own = reference(p, doubles(out.get(0)), training);
        double f = 0;
        double fScale = 0;
        for (int i = 0; i < own.y().length; i++) {
            f += p.dy()[i] * own.y()[i];
            fScale += Math.abs(p.dy()[i] * own.y()[i]);
        }
        assertClose(new double[] {f}, out.get(2), fScale, LAYER_TOLERANCE / 10, what + ": sum(dy y)");
        assertClose(own.y(), out.get(1), LAYER_TOLERANCE, what + ": y of the float input");
        assertClose(own.dz(), out.get(3), LAYER_TOLERANCE, what + ": dx of the float input");
        assertClose(own.dgamma(), out.get(6), LAYER_TOLERANCE, what + ": dgamma of the float input");
        assertClose(own.dbeta(), out.get(7), LAYER_TOLERANCE, what + ": dbeta of the float input");
        double[] movingMean = new double[p.channels()];
        double[] movingVariance = new double[p.channels()];
        for (int c = 0; c < p.channels(); c++) {
            movingMean[c] = training ? p.movingMean()[c] * MOMENTUM + own.mean()[c] * (1 - MOMENTUM)
                    : p.movingMean()[c];
            movingVariance[c] = training ? p.movingVariance()[c] * MOMENTUM + own.variance()[c] * (1 - MOMENTUM)
                    : p.movingVariance()[c];
        }
        assertClose(movingMean, bn.movingMean().value(), LAYER_TOLERANCE, what + ": moving mean");
        assertClose(movingVariance, bn.movingVariance().value(), LAYER_TOLERANCE, what + ": moving variance");
    }

    @ParameterizedTest
    @ValueSource(strings = {"eager/default", "compiled/default", "eager/scalar", "compiled/scalar"})
    void afterConvolutionInTraining(String mode) {
        check(mode, conv(), true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"eager/default", "compiled/default", "eager/scalar", "compiled/scalar"})
    void afterConvolutionInInference(String mode) {
        check(mode, conv(), false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"eager/default", "compiled/default", "eager/scalar", "compiled/scalar"})
    void afterDenseInTraining(String mode) {
        check(mode, dense(), true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"eager/default", "compiled/default", "eager/scalar", "compiled/scalar"})
    void afterDenseInInference(String mode) {
        check(mode, dense(), false);
    }
}
