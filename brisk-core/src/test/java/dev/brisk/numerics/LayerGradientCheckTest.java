package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.awayFromZero;
import static dev.brisk.numerics.GradCheck.distinct;
import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.GradCheck.uniform;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finite-difference checks of every built-in layer (gradient with respect to each input and each trainable weight)
 * and of every loss (gradient with respect to the predictions), on the default and the scalar kernels.
 */
class LayerGradientCheckTest {
    private static final float SEED_VALUE = 1234f;

    @BeforeEach
    void seed() {
        RandomSeed.set(42);
    }

    /**
     * Checks {@code layer} on {@code inputs}: builds it, overwrites its trainable weights with {@code weights}
     * (null keeps the initial values), then checks d sum(layer(inputs) * R) with respect to every input and every
     * trainable weight.
     */
    static double checkLayer(Kernels k, String what, Layer layer, boolean training, List<Tensor> weights,
                                     Tensor... inputs) {
        List<Tensor> in = new ArrayList<>();
        for (Tensor t : inputs) {
            in.add(t.copy());
        }
        Graph warm = Graph.eager(k);
        layer.invoke(warm, in.stream().map(t -> warm.input("x", t)).toList(),
                new CallContext(training, warm.input("seed", Tensor.scalar(SEED_VALUE))));
        List<Variable> trainable = layer.trainableWeights();
        if (weights != null) {
            assertEquals(trainable.size(), weights.size(), what + ": weights given");
            for (int i = 0; i < weights.size(); i++) {
                trainable.get(i).assign(weights.get(i));
            }
        }
        List<Tensor> params = new ArrayList<>(in);
        trainable.forEach(v -> params.add(v.value()));
        GradCheck.Problem p = (g, nodes) -> {
            List<Node> xs = new ArrayList<>();
            for (int i = 0; i < in.size(); i++) {
                xs.add(g.input("x" + i, in.get(i)));
            }
            Node seed = g.input("seed", Tensor.scalar(SEED_VALUE));
            Node y = layer.invoke(g, xs, new CallContext(training, seed));
            nodes.addAll(xs);
            trainable.forEach(v -> nodes.add(g.variable(v)));
            return y;
        };
        return GradCheck.check(k, what + " (" + layer.name() + ")", params, p, GradCheck.EPS, GradCheck.ATOL);
    }

    /** Dense weights, x and bias drawn so that no pre-activation is within 0.15 of 0 (the relu kink). */
    private static Tensor[] denseData(int batch, int in, int units) {
        for (long s = 1; ; s++) {
            Tensor x = gaussian(s * 3, 1, batch, in);
            Tensor w = gaussian(s * 3 + 1, 0.6, in, units);
            Tensor b = gaussian(s * 3 + 2, 0.3, units);
            double min = Double.MAX_VALUE;
            for (int r = 0; r < batch; r++) {
                for (int c = 0; c < units; c++) {
                    double z = b.get(c);
                    for (int j = 0; j < in; j++) {
                        z += (double) x.get(r * in + j) * w.get(j * units + c);
                    }
                    min = Math.min(min, Math.abs(z));
                }
            }
            if (min > 0.15) {
                return new Tensor[] {x, w, b};
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void denseWithEveryActivation(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor[] d = denseData(4, 5, 3);
        for (Activation a : Activation.values()) {
            checkLayer(k, "dense " + a, Layers.dense(3, a), true, List.of(d[1], d[2]), d[0]);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void conv2dLayer(String backend) {
        Kernels k = GradCheck.kernels(backend);
        checkLayer(k, "conv valid", Layers.conv2d(3, 3, Activation.LINEAR), true,
                List.of(gaussian(1, 0.5, 3, 3, 2, 3), gaussian(2, 0.5, 3)), gaussian(3, 1, 2, 5, 5, 2));
        checkLayer(k, "conv same", Layers.conv2d(2, 3, 1, Padding.SAME, Activation.TANH), true,
                List.of(gaussian(4, 0.5, 3, 3, 2, 2), gaussian(5, 0.5, 2)), gaussian(6, 1, 1, 4, 5, 2));
        checkLayer(k, "conv same stride2", Layers.conv2d(3, 3, 2, Padding.SAME, Activation.LINEAR), true,
                List.of(gaussian(7, 0.5, 3, 3, 2, 3), gaussian(8, 0.5, 3)), gaussian(9, 1, 2, 6, 5, 2));
        checkLayer(k, "conv valid stride2", Layers.conv2d(2, 2, 2, Padding.VALID, Activation.SIGMOID), true,
                List.of(gaussian(10, 0.5, 2, 2, 3, 2), gaussian(11, 0.5, 2)), gaussian(12, 1, 1, 5, 4, 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void poolingAndShapeLayers(String backend) {
        Kernels k = GradCheck.kernels(backend);
        checkLayer(k, "maxpool 2", Layers.maxPooling2d(2), true, null, distinct(20, 0.05, 0.01, 2, 4, 4, 3));
        checkLayer(k, "maxpool 3/2 same", Layers.maxPooling2d(3, 2, Padding.SAME), true, null,
                distinct(21, 0.05, 0.01, 1, 5, 4, 2));
        checkLayer(k, "avgpool 2", Layers.averagePooling2d(2), true, null, gaussian(22, 1, 2, 4, 4, 3));
        checkLayer(k, "avgpool 3/2 same", Layers.averagePooling2d(3, 2, Padding.SAME), true, null,
                gaussian(23, 1, 1, 5, 4, 2));
        checkLayer(k, "global avg", Layers.globalAveragePooling2d(), true, null, gaussian(24, 1, 2, 3, 4, 3));
        checkLayer(k, "flatten", Layers.flatten(), true, null, gaussian(25, 1, 2, 3, 2, 2));
        checkLayer(k, "reshape", Layers.reshape(3, -1), true, null, gaussian(26, 1, 2, 3, 4));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void dropout(String backend) {
        Kernels k = GradCheck.kernels(backend);
        // inference: identity (the very same node), gradient R
        Layer drop = Layers.dropout(0.5f);
        Graph g = Graph.eager(k);
        Node x = g.input("x", gaussian(30, 1, 4, 6));
        Node y = drop.invoke(g, List.of(x), new CallContext(false, g.input("seed", Tensor.scalar(1f))));
        assertSame(x, y);
        checkLayer(k, "dropout inference", drop, false, null, gaussian(31, 1, 4, 6));
        // training with a fixed seed node: the same mask at every evaluation, so finite differences are exact
        Layer train = Layers.dropout(0.3f);
        checkLayer(k, "dropout training", train, true, null, gaussian(32, 1, 5, 8));
        float[] a = dropoutOutput(k, train, 7f);
        float[] b = dropoutOutput(k, train, 7f);
        assertArrayEquals(a, b, "same seed, same mask");
        int zeros = 0;
        for (float v : a) {
            zeros += v == 0 ? 1 : 0;
        }
        assertTrue(zeros > 2 && zeros < 38, "some of 40 dropped: " + zeros);
        assertNotEquals(java.util.Arrays.toString(a), java.util.Arrays.toString(dropoutOutput(k, train, 8f)),
                "another seed, another mask");
    }

    private static float[] dropoutOutput(Kernels k, Layer layer, float seed) {
        Graph g = Graph.eager(k);
        Node x = g.input("x", uniform(33, 1, 2, 5, 8));
        return layer.invoke(g, List.of(x), new CallContext(true, g.input("seed", Tensor.scalar(seed)))).value()
                .toArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void batchNormalizationTraining(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor x2 = gaussian(40, 1, 6, 3);
        for (int i = 0; i < x2.size(); i++) {
            x2.set(i, x2.get(i) + (i % 3) - 1); // per-channel offsets
        }
        BatchNormalization bn = Layers.batchNormalization();
        checkLayer(k, "batchnorm 2d", bn, true,
                List.of(uniform(41, 0.6, 1.4, 3), gaussian(42, 0.3, 3)), x2);
        checkLayer(k, "batchnorm conv", Layers.batchNormalization(), true,
                List.of(uniform(43, 0.6, 1.4, 2), gaussian(44, 0.3, 2)), gaussian(45, 1, 2, 3, 3, 2));
        // inference mode is affine in x, gamma and beta given the moving statistics
        checkLayer(k, "batchnorm inference", bn, false, null, gaussian(46, 1, 4, 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void activationAddConcatenate(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (Activation a : Activation.values()) {
            checkLayer(k, "activation " + a, Layers.activation(a), true, null, awayFromZero(50, 0.15, 2, 3, 4));
        }
        checkLayer(k, "add 2", Layers.add(), true, null, gaussian(51, 1, 3, 4), gaussian(52, 1, 3, 4));
        checkLayer(k, "add 3", Layers.add(), true, null, gaussian(53, 1, 2, 2, 3), gaussian(54, 1, 2, 2, 3),
                gaussian(55, 1, 2, 2, 3));
        // Keras' merge broadcasting: a size-1 axis, and a lower-rank input aligned after the batch axis.
        checkLayer(k, "add broadcast", Layers.add(), true, null, gaussian(61, 1, 2, 3, 4), gaussian(62, 1, 2, 1, 4));
        checkLayer(k, "multiply lower rank", Layers.multiply(), true, null, gaussian(63, 1, 2, 3, 4),
                gaussian(64, 1, 2, 4));
        checkLayer(k, "subtract broadcast", Layers.subtract(), true, null, gaussian(65, 1, 2, 3, 1),
                gaussian(66, 1, 2, 3, 4));
        checkLayer(k, "concat last", Layers.concatenate(), true, null, gaussian(56, 1, 2, 3, 2),
                gaussian(57, 1, 2, 3, 4));
        checkLayer(k, "concat axis 1", Layers.concatenate(1), true, null, gaussian(58, 1, 2, 2, 3),
                gaussian(59, 1, 2, 1, 3), gaussian(60, 1, 2, 3, 3));
    }

    // ---- losses ----

    /**
     * Checks d loss / d yPred. The loss is a float32 scalar (it cannot be summed in double on the host), so the
     * difference step trades rounding noise against truncation: 1e-2 for smooth losses of logits and MSE/MAE,
     * 1e-3 where log(p) of probabilities down to 0.05 has large third derivatives.
     */
    private static void checkLoss(Kernels k, String what, Loss loss, Tensor yTrue, Tensor yPred) {
        checkLoss(k, what, loss, yTrue, yPred, 1e-2);
    }

    private static void checkLoss(Kernels k, String what, Loss loss, Tensor yTrue, Tensor yPred, double eps) {
        Tensor pred = yPred.copy();
        GradCheck.Problem p = (g, nodes) -> {
            Node pn = g.input("pred", pred);
            nodes.add(pn);
            Node l = loss.compute(g, g.input("true", yTrue), pn);
            assertEquals(0, l.shape().rank(), what + ": scalar loss");
            return l;
        };
        GradCheck.check(k, "loss " + what, List.of(pred), p, eps, GradCheck.LOSS_ATOL);
    }

    private static Tensor oneHot(Tensor labels, int classes) {
        Tensor t = Tensor.zeros(labels.size(), classes);
        for (int i = 0; i < labels.size(); i++) {
            t.set(i * classes + (int) labels.get(i), 1f);
        }
        return t;
    }

    private static Tensor positiveRows(long seed, int rows, int cols) {
        return uniform(seed, 0.1, 1.0, rows, cols); // not normalised: the loss renormalises
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void losses(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor labels = GradCheck.labels(70, 5, 4);
        checkLoss(k, "sparse CE logits", Losses.sparseCategoricalCrossentropy(true), labels, gaussian(71, 1.5, 5, 4));
        checkLoss(k, "sparse CE probs", Losses.sparseCategoricalCrossentropy(false), labels, positiveRows(72, 5, 4),
                1e-3);
        checkLoss(k, "categorical CE logits", Losses.categoricalCrossentropy(true), oneHot(labels, 4),
                gaussian(73, 1.5, 5, 4));
        checkLoss(k, "categorical CE probs", Losses.categoricalCrossentropy(false), oneHot(labels, 4),
                positiveRows(74, 5, 4), 1e-3);
        Tensor soft = uniform(75, 0, 1, 5, 4);
        checkLoss(k, "categorical CE soft targets", Losses.categoricalCrossentropy(true), soft,
                gaussian(76, 1.5, 5, 4));
        Tensor bin = Tensor.zeros(4, 3);
        for (int i = 0; i < bin.size(); i++) {
            bin.set(i, (i * 7) % 3 == 0 ? 1f : 0f);
        }
        // logits away from 0: |x| enters through ABS (and RELU) in the stable form
        checkLoss(k, "binary CE logits", Losses.binaryCrossentropy(true), bin, awayFromZero(77, 0.1, 3, 4, 3));
        checkLoss(k, "binary CE probs", Losses.binaryCrossentropy(false), bin, uniform(78, 0.05, 0.95, 4, 3),
                1e-3);
        checkLoss(k, "binary CE probs (batch,)", Losses.binaryCrossentropy(false), Tensor.of(new float[] {1, 0, 1}, 3),
                Tensor.of(new float[] {0.3f, 0.6f, 0.9f}, 3, 1), 1e-3);
        Tensor t = gaussian(79, 1, 4, 3);
        checkLoss(k, "MSE", Losses.meanSquaredError(), t, gaussian(80, 1, 4, 3));
        Tensor mae = awayFromZero(81, 0.1, 1, 4, 3);
        for (int i = 0; i < mae.size(); i++) {
            mae.set(i, mae.get(i) + t.get(i));
        }
        checkLoss(k, "MAE", Losses.meanAbsoluteError(), t, mae);
        checkLoss(k, "MSE rank1", Losses.meanSquaredError(), gaussian(82, 1, 5), gaussian(83, 1, 5));
    }

    /** Gradients through a whole (small) model: dense -> batchnorm -> relu -> dense -> loss, wrt all weights. */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void smallNetworkEndToEnd(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Layer d1 = Layers.dense(4, Activation.TANH);
        Layer bn = Layers.batchNormalization();
        Layer d2 = Layers.dense(3);
        Tensor x = gaussian(90, 1, 6, 5);
        Tensor labels = GradCheck.labels(91, 6, 3);
        Loss loss = Losses.sparseCategoricalCrossentropy(true);
        List<Layer> layers = List.of(d1, bn, d2);
        GradCheck.Problem build = (g, nodes) -> {
            Node h = g.input("x", x);
            CallContext ctx = new CallContext(true, g.input("seed", Tensor.scalar(1f)));
            for (Layer l : layers) {
                h = l.invoke(g, List.of(h), ctx);
            }
            for (Layer l : layers) {
                l.trainableWeights().forEach(v -> nodes.add(g.variable(v)));
            }
            return loss.compute(g, g.input("labels", labels), h);
        };
        build.forward(Graph.eager(k), new ArrayList<>());
        List<Tensor> params = new ArrayList<>();
        for (Layer l : layers) {
            l.trainableWeights().forEach(v -> params.add(v.value()));
        }
        assertEquals(6, params.size());
        GradCheck.check(k, "dense-bn-dense-loss", params, build, 1e-2, GradCheck.LOSS_ATOL);
        // the gradient graph must not depend on anything but the loss: no stray NaNs from the assign side effects
        Graph g = Graph.eager(k);
        List<Node> nodes = new ArrayList<>();
        Node l = build.forward(g, nodes);
        for (Node gr : Autodiff.gradients(g, l, nodes)) {
            for (float v : gr.value().toArray()) {
                assertTrue(Float.isFinite(v));
            }
        }
    }
}
