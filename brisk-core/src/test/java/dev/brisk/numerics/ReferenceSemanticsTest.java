package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.TorchFixturesTest.assertClose;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forward semantics the gradient checks cannot see (a self-consistent but wrong op passes a gradient check):
 * TF/Keras "same" padding of convolution and pooling against a float64 reference, batch normalisation's moving
 * statistics through {@code Model.fit} in eager and compiled mode, gradient clipping, and ties in reductions.
 */
class ReferenceSemanticsTest {

    /** TF "same": out = ceil(in / stride), total = max((out - 1) * stride + k - in, 0), top = total / 2. */
    private static int[] same(int in, int k, int stride) {
        int out = (in + stride - 1) / stride;
        int total = Math.max((out - 1) * stride + k - in, 0);
        return new int[] {out, total / 2};
    }

    /** Reference NHWC conv (kernel kh,kw,c,o) in double. */
    private static Tensor refConv(Tensor x, Tensor w, int stride, boolean pad) {
        int n = x.shape().dim(0), h = x.shape().dim(1), wd = x.shape().dim(2), c = x.shape().dim(3);
        int kh = w.shape().dim(0), kw = w.shape().dim(1), o = w.shape().dim(3);
        int oh, ow, pt, pl;
        if (pad) {
            int[] a = same(h, kh, stride);
            int[] b = same(wd, kw, stride);
            oh = a[0];
            pt = a[1];
            ow = b[0];
            pl = b[1];
        } else {
            oh = (h - kh) / stride + 1;
            ow = (wd - kw) / stride + 1;
            pt = 0;
            pl = 0;
        }
        float[] y = new float[n * oh * ow * o];
        for (int b = 0; b < n; b++) {
            for (int i = 0; i < oh; i++) {
                for (int j = 0; j < ow; j++) {
                    for (int oc = 0; oc < o; oc++) {
                        double s = 0;
                        for (int di = 0; di < kh; di++) {
                            for (int dj = 0; dj < kw; dj++) {
                                int r = i * stride + di - pt;
                                int q = j * stride + dj - pl;
                                if (r < 0 || r >= h || q < 0 || q >= wd) {
                                    continue;
                                }
                                for (int ic = 0; ic < c; ic++) {
                                    s += (double) x.at(b, r, q, ic) * w.at(di, dj, ic, oc);
                                }
                            }
                        }
                        y[((b * oh + i) * ow + j) * o + oc] = (float) s;
                    }
                }
            }
        }
        return Tensor.of(y, n, oh, ow, o);
    }

    /** Reference pooling: max ignores padded cells, average divides by the number of real cells (Keras). */
    private static Tensor refPool(Tensor x, PoolAttrs p, boolean max) {
        int n = x.shape().dim(0), h = x.shape().dim(1), wd = x.shape().dim(2), c = x.shape().dim(3);
        int oh, ow, pt, pl;
        if (p.same()) {
            int[] a = same(h, p.poolH(), p.strideH());
            int[] b = same(wd, p.poolW(), p.strideW());
            oh = a[0];
            pt = a[1];
            ow = b[0];
            pl = b[1];
        } else {
            oh = (h - p.poolH()) / p.strideH() + 1;
            ow = (wd - p.poolW()) / p.strideW() + 1;
            pt = 0;
            pl = 0;
        }
        float[] y = new float[n * oh * ow * c];
        for (int b = 0; b < n; b++) {
            for (int i = 0; i < oh; i++) {
                for (int j = 0; j < ow; j++) {
                    for (int ch = 0; ch < c; ch++) {
                        double best = Double.NEGATIVE_INFINITY;
                        double sum = 0;
                        int count = 0;
                        for (int di = 0; di < p.poolH(); di++) {
                            for (int dj = 0; dj < p.poolW(); dj++) {
                                int r = i * p.strideH() + di - pt;
                                int q = j * p.strideW() + dj - pl;
                                if (r < 0 || r >= h || q < 0 || q >= wd) {
                                    continue;
                                }
                                double v = x.at(b, r, q, ch);
                                best = Math.max(best, v);
                                sum += v;
                                count++;
                            }
                        }
                        y[((b * oh + i) * ow + j) * c + ch] = (float) (max ? best : sum / count);
                    }
                }
            }
        }
        return Tensor.of(y, n, oh, ow, c);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void convSamePaddingMatchesTensorFlow(String backend) {
        Kernels k = GradCheck.kernels(backend);
        int[][] cases = { // h, w, c, kh, kw, o, stride, same
            {5, 5, 2, 3, 3, 3, 1, 1}, {4, 4, 2, 2, 2, 2, 1, 1}, {6, 5, 2, 3, 3, 3, 2, 1}, {7, 6, 1, 4, 2, 2, 2, 1},
            {5, 7, 3, 1, 1, 2, 2, 1}, {8, 8, 2, 3, 3, 2, 3, 1}, {7, 6, 2, 3, 2, 2, 2, 0}, {3, 3, 2, 5, 5, 1, 1, 1}};
        int seed = 500;
        for (int[] c : cases) {
            Tensor x = gaussian(seed++, 1, 2, c[0], c[1], c[2]);
            Tensor w = gaussian(seed++, 1, c[3], c[4], c[2], c[5]);
            Graph g = Graph.eager(k);
            Node y = g.conv2d(g.input("x", x), g.input("w", w), c[6], c[6], c[7] == 1);
            assertClose(refConv(x, w, c[6], c[7] == 1), y.value(), "conv " + java.util.Arrays.toString(c));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void poolingSamePaddingMatchesKeras(String backend) {
        Kernels k = GradCheck.kernels(backend);
        List<PoolAttrs> cases = List.of(new PoolAttrs(2, 2, 2, 2, true), new PoolAttrs(3, 3, 2, 2, true),
                new PoolAttrs(3, 3, 1, 1, true), new PoolAttrs(3, 2, 2, 1, true), new PoolAttrs(2, 2, 1, 1, false),
                new PoolAttrs(3, 3, 2, 2, false));
        int seed = 600;
        for (PoolAttrs p : cases) {
            // all negative: a max pool that let padded zeros win would show
            Tensor x = GradCheck.uniform(seed++, -3, -0.5, 2, 5, 6, 2);
            Graph g = Graph.eager(k);
            Node xn = g.input("x", x);
            assertClose(refPool(x, p, true), g.maxPool(xn, p).value(), "maxPool " + p);
            assertClose(refPool(x, p, false), g.avgPool(xn, p).value(), "avgPool " + p);
        }
    }

    /** Keras: the moving statistics after one training step, then inference with them, through Model.fit. */
    @ParameterizedTest
    @ValueSource(strings = {"eager", "compiled"})
    void batchNormMovingStatisticsThroughFit(String mode) {
        RandomSeed.set(3);
        for (String name : List.of("batchnorm", "batchnorm_conv")) {
            TorchFixturesTest.Fixture fx = TorchFixturesTest.Fixture.load(name);
            Tensor x = fx.t("x");
            int[] sample = new int[x.shape().rank() - 1];
            for (int i = 0; i < sample.length; i++) {
                sample[i] = x.shape().dim(i + 1);
            }
            BatchNormalization bn = Layers.batchNormalization();
            Model model = Sequential.of(Layers.input(sample), bn);
            model.setWeights(List.of(fx.t("gamma"), fx.t("beta"), fx.t("moving_mean_initial"),
                    fx.t("moving_variance_initial")));
            // learning rate 0: gamma and beta stay, only the moving statistics change
            model.compile(Optimizers.sgd(0f), Losses.meanSquaredError());
            model.runEagerly(mode.equals("eager"));
            model.fit(x, Tensor.zeros(x.shape()), Fit.epochs(1).batchSize(x.shape().dim(0)).shuffle(false).verbose(0));
            assertClose(fx.t("moving_mean"), bn.movingMean().value(), mode + " " + name + " moving mean");
            assertClose(fx.t("moving_variance"), bn.movingVariance().value(), mode + " " + name + " moving variance");
            assertClose(fx.t("gamma"), bn.gamma().value(), mode + " " + name + " gamma unchanged");
            assertClose(fx.t("y_inference"), model.predict(x, x.shape().dim(0)), mode + " " + name + " predict");
        }
    }

    /** Keras clipnorm / global_clipnorm: g * limit / max(||g||, limit), before the update. */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void gradientClipping(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor g1 = gaussian(700, 2, 3, 4);
        Tensor g2 = gaussian(701, 2, 5);
        double n1 = 0, n2 = 0;
        for (float v : g1.toArray()) {
            n1 += (double) v * v;
        }
        for (float v : g2.toArray()) {
            n2 += (double) v * v;
        }
        float lr = 0.1f;
        // per-variable clipping to 1: each update has norm lr; global clipping to 2: the joint norm is 2 lr
        double[][] factors = {{1 / Math.sqrt(n1), 1 / Math.sqrt(n2)},
            {2 / Math.sqrt(n1 + n2), 2 / Math.sqrt(n1 + n2)}, {1, 1}};
        for (int mode = 0; mode < 3; mode++) {
            Optimizer opt = Optimizers.sgd(lr);
            if (mode == 0) {
                opt.clipNorm(1f);
            } else if (mode == 1) {
                opt.globalClipNorm(2f);
            } else {
                opt.clipNorm(1000f); // far above the norm: no change
            }
            Variable a = new Variable("a", Tensor.zeros(3, 4), true);
            Variable b = new Variable("b", Tensor.zeros(5), true);
            Graph g = Graph.eager(k);
            float[] hyper = opt.hyperParameters();
            opt.apply(g, List.of(a, b), List.of(g.input("g1", g1), g.input("g2", g2)),
                    g.input("hyper", Tensor.of(hyper, hyper.length)));
            Tensor ea = Tensor.zeros(3, 4);
            Tensor eb = Tensor.zeros(5);
            for (int i = 0; i < 12; i++) {
                ea.set(i, (float) (-lr * g1.get(i) * factors[mode][0]));
            }
            for (int i = 0; i < 5; i++) {
                eb.set(i, (float) (-lr * g2.get(i) * factors[mode][1]));
            }
            assertClose(ea, a.value(), "clip mode " + mode + " a");
            assertClose(eb, b.value(), "clip mode " + mode + " b");
        }
    }

    /** Losses stay finite and exact at extreme logits and at probabilities of exactly 0 and 1 (Keras clipping). */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void lossesAtExtremes(String backend) {
        Kernels k = GradCheck.kernels(backend);
        // sparse CE from logits +-1000: log-softmax must not overflow
        Tensor logits = Tensor.of(new float[] {1000, 0, -1000, 1000, 0, -1000}, 2, 3);
        Tensor[] r = lossAndGrad(k, Losses.sparseCategoricalCrossentropy(true), Tensor.of(new float[] {0, 1}, 2),
                logits);
        assertClose(Tensor.scalar(500f), r[0], "sparse CE extreme loss");
        assertClose(Tensor.of(new float[] {0, 0, 0, 0.5f, -0.5f, 0}, 2, 3), r[1], "sparse CE extreme grad");
        // binary CE from logits: max(x,0) - x z + log(1 + exp(-|x|)), gradient (sigmoid(x) - z) / n
        float[] x = {100, -100, 30, -30, 0.5f, -2};
        float[] z = {0, 1, 1, 0, 1, 0};
        double loss = 0;
        float[] grad = new float[6];
        for (int i = 0; i < 6; i++) {
            loss += Math.max(x[i], 0) - x[i] * z[i] + Math.log1p(Math.exp(-Math.abs(x[i])));
            grad[i] = (float) ((1 / (1 + Math.exp(-x[i])) - z[i]) / 6);
        }
        r = lossAndGrad(k, Losses.binaryCrossentropy(true), Tensor.of(z, 2, 3), Tensor.of(x, 2, 3));
        assertClose(Tensor.scalar((float) (loss / 6)), r[0], "binary CE logits extreme loss");
        assertClose(Tensor.of(grad, 2, 3), r[1], "binary CE logits extreme grad");
        // probabilities of exactly 0 and 1 are clipped to [1e-7, 1 - 1e-7]
        Tensor probs = Tensor.of(new float[] {1, 0, 0, 0, 1, 0}, 2, 3);
        Tensor onehot = Tensor.of(new float[] {0, 1, 0, 0, 1, 0}, 2, 3);
        r = lossAndGrad(k, Losses.categoricalCrossentropy(false), onehot, probs);
        double clippedOne = Math.log((double) (1f - 1e-7f));
        assertClose(Tensor.scalar((float) ((-Math.log(1e-7f) - clippedOne) / 2)), r[0], "categorical CE at 0/1");
        assertFinite(r[1], "categorical CE at 0/1 grad");
        r = lossAndGrad(k, Losses.binaryCrossentropy(false), Tensor.of(new float[] {0, 1, 1, 0, 1, 0}, 2, 3), probs);
        // in float32 the upper clip bound 1 - 1e-7 is 1 - 2^-23 (as in Keras), so -log(1 - p) tops out at 15.94,
        // not 16.12: p=1,z=0 -> -log(1 - hi); p=0,z=1 (twice) -> -log(1e-7); the other three -> -log(hi)
        double hi = 1f - 1e-7f;
        double expected = (-Math.log(1 - hi) - 2 * Math.log(1e-7f) - 3 * Math.log(hi)) / 6;
        assertClose(Tensor.scalar((float) expected), r[0], "binary CE at 0/1");
        assertFinite(r[1], "binary CE at 0/1 grad");
        // softmax of huge logits
        Graph g = Graph.eager(k);
        Tensor y = g.softmax(g.input("x", Tensor.of(new float[] {1e4f, -1e4f, 1e4f, 3e4f}, 1, 4))).value();
        assertClose(Tensor.of(new float[] {0, 0, 0, 1}, 1, 4), y, "softmax huge");
    }

    private static void assertFinite(Tensor t, String what) {
        for (int i = 0; i < t.size(); i++) {
            if (!Float.isFinite(t.get(i))) {
                throw new AssertionError(what + ": element " + i + " is " + t.get(i));
            }
        }
    }

    private static Tensor[] lossAndGrad(Kernels k, dev.brisk.losses.Loss loss, Tensor yTrue, Tensor yPred) {
        Graph g = Graph.eager(k);
        Node pred = g.input("pred", yPred);
        Node l = loss.compute(g, g.input("true", yTrue), pred);
        return new Tensor[] {l.value(), Autodiff.gradients(g, l, List.of(pred)).get(0).value()};
    }

    /**
     * d max(x) / dx with ties: any valid (sub)gradient sums to dy over the tied elements (TF and PyTorch split it
     * evenly, and so does Brisk).
     */
    @Test
    void reduceMaxGradientWithTiesSumsToUpstream() {
        Graph g = Graph.eager(GradCheck.kernels("scalar"));
        Node x = g.input("x", Tensor.of(new float[] {1, 3, 3, 0, 2, 2, 2, -1}, 2, 4));
        Node y = g.sumAll(g.reduce(ReduceFn.MAX, x, false, 1));
        float[] dx = Autodiff.gradients(g, y, List.of(x)).get(0).value().toArray();
        // row 0: max 3 twice; row 1: max 2 three times
        assertEquals(1.0, dx[0] + dx[1] + dx[2] + dx[3], 1e-6, "row 0 gradient mass: " + java.util.Arrays.toString(dx));
        assertEquals(1.0, dx[4] + dx[5] + dx[6] + dx[7], 1e-6, "row 1 gradient mass: " + java.util.Arrays.toString(dx));
    }
}
