package dev.brisk.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brisk.backend.Kernels;
import dev.brisk.config.Settings;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.ModelInternals;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Brisk against the PyTorch reference fixtures of {@code tools/fixtures/make_torch_fixtures.py} (float64 results
 * of float32-exact inputs, in Keras conventions). Layer gradients are of {@code sum(dy * y)}; loss gradients of the
 * batch-mean loss. Every check runs on the default and the scalar kernels.
 */
class TorchFixturesTest {
    /** |actual - expected| <= max(ATOL, RTOL * |expected|). */
    static final double RTOL = 1e-4;
    static final double ATOL = 1e-5;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Set -Dbrisk.gradcheck.verbose=true to print how close each comparison came to its tolerance. */
    private static final boolean VERBOSE = Settings.gradCheckVerbose();

    @BeforeEach
    void seed() {
        RandomSeed.set(7);
    }

    // ---- fixture access ----

    /** One fixture file: its tensors and config. */
    record Fixture(String name, JsonNode root) {
        static Fixture load(String name) {
            String path = "/torch-fixtures/" + name + ".json";
            try (InputStream in = TorchFixturesTest.class.getResourceAsStream(path)) {
                assertNotNull(in, "missing fixture " + path);
                JsonNode root = JSON.readTree(in);
                assertEquals(name, root.get("name").asText());
                return new Fixture(name, root);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Tensor t(String key) {
            JsonNode e = root.get("tensors").get(key);
            assertNotNull(e, name + ": no tensor '" + key + "'");
            int[] dims = new int[e.get("shape").size()];
            for (int i = 0; i < dims.length; i++) {
                dims[i] = e.get("shape").get(i).asInt();
            }
            JsonNode data = e.get("data");
            float[] v = new float[data.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) data.get(i).asDouble();
            }
            return dims.length == 0 ? Tensor.scalar(v[0]) : Tensor.of(v, dims);
        }

        double num(String key) {
            return root.get(key).asDouble();
        }

        String str(String key) {
            return root.get(key).asText();
        }

        int intAt(String key, int i) {
            return root.get(key).get(i).asInt();
        }
    }

    static void assertClose(Tensor expected, Tensor actual, String what) {
        assertNotNull(actual, what + ": no value");
        assertEquals(expected.size(), actual.size(), what + ": size (shape " + expected.shape() + " vs "
                + actual.shape() + ")");
        if (expected.shape().rank() > 0) {
            assertEquals(expected.shape(), actual.shape(), what + ": shape");
        }
        double worst = 0;
        int at = -1;
        for (int i = 0; i < expected.size(); i++) {
            double e = expected.get(i);
            double a = actual.get(i);
            double err = Math.abs(a - e) / Math.max(ATOL, RTOL * Math.abs(e));
            if (!(err <= worst)) {
                worst = err;
                at = i;
            }
        }
        if (VERBOSE) {
            System.out.printf("fixture %-55s worst %.3f of tolerance%n", what, worst);
        }
        if (!(worst <= 1)) {
            fail(String.format("%s: element %d: expected %.8g, got %.8g (%.2f x the tolerance)", what, at,
                    expected.get(at), actual.get(at), worst));
        }
    }

    /** Builds an unbuilt layer for inputs shaped like {@code x} (first call), leaving its weights to be set. */
    static void build(Kernels k, Layer layer, Tensor x) {
        Graph g = Graph.eager(k);
        layer.invoke(g, List.of(g.input("x", x)), new CallContext(false, g.input("seed", Tensor.scalar(0f))));
    }

    /** Forward in eager mode plus the gradients of sum(dy * y) with respect to x and the given variables. */
    record Pass(Tensor y, List<Tensor> grads) {
    }

    static Pass layerPass(Kernels k, Layer layer, boolean training, Tensor x, Tensor dy, List<Variable> wrt) {
        Graph g = Graph.eager(k);
        Node xn = g.input("x", x);
        Node y = layer.invoke(g, List.of(xn), new CallContext(training, g.input("seed", Tensor.scalar(0f))));
        Node f = g.sumAll(g.mul(y, g.input("dy", dy)));
        List<Node> nodes = new ArrayList<>();
        nodes.add(xn);
        wrt.forEach(v -> nodes.add(g.variable(v)));
        List<Tensor> grads = Autodiff.gradients(g, f, nodes).stream().map(n -> n.value().copy()).toList();
        return new Pass(y.value().copy(), grads);
    }

    // ---- layers ----

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void dense(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("dense", "dense_relu")) {
            Fixture fx = Fixture.load(name);
            Activation act = fx.str("activation").equals("relu") ? Activation.RELU : Activation.LINEAR;
            assertEquals(name.equals("dense") ? "linear" : "relu", fx.str("activation"));
            Dense layer = Layers.dense((int) fx.num("units"), act);
            build(k, layer, fx.t("x"));
            layer.kernel().assign(fx.t("kernel"));
            layer.bias().assign(fx.t("bias"));
            Pass p = layerPass(k, layer, true, fx.t("x"), fx.t("dy"), List.of(layer.kernel(), layer.bias()));
            assertClose(fx.t("y"), p.y(), name + " y");
            assertClose(fx.t("dx"), p.grads().get(0), name + " dx");
            assertClose(fx.t("dkernel"), p.grads().get(1), name + " dkernel");
            assertClose(fx.t("dbias"), p.grads().get(2), name + " dbias");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void conv2d(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("conv2d_valid", "conv2d_same_stride2", "conv2d_same_stride2_asym")) {
            Fixture fx = Fixture.load(name);
            assertEquals("channels_last", fx.str("data_format"));
            int kh = fx.intAt("kernel_size", 0);
            assertEquals(kh, fx.intAt("kernel_size", 1));
            int stride = fx.intAt("strides", 0);
            assertEquals(stride, fx.intAt("strides", 1));
            Padding padding = fx.str("padding").equals("same") ? Padding.SAME : Padding.VALID;
            Conv2D layer = Layers.conv2d((int) fx.num("filters"), kh, stride, padding, Activation.LINEAR);
            build(k, layer, fx.t("x"));
            layer.kernel().assign(fx.t("kernel"));
            layer.bias().assign(fx.t("bias"));
            Pass p = layerPass(k, layer, true, fx.t("x"), fx.t("dy"), List.of(layer.kernel(), layer.bias()));
            assertClose(fx.t("y"), p.y(), name + " y");
            assertClose(fx.t("dx"), p.grads().get(0), name + " dx");
            assertClose(fx.t("dkernel"), p.grads().get(1), name + " dkernel");
            assertClose(fx.t("dbias"), p.grads().get(2), name + " dbias");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void pooling(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("maxpool", "avgpool")) {
            Fixture fx = Fixture.load(name);
            assertEquals("valid", fx.str("padding"));
            int pool = fx.intAt("pool_size", 0);
            int stride = fx.intAt("strides", 0);
            Layer layer = name.equals("maxpool") ? Layers.maxPooling2d(pool, stride, Padding.VALID)
                    : Layers.averagePooling2d(pool, stride, Padding.VALID);
            Pass p = layerPass(k, layer, true, fx.t("x"), fx.t("dy"), List.of());
            assertClose(fx.t("y"), p.y(), name + " y");
            assertClose(fx.t("dx"), p.grads().get(0), name + " dx");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void batchNormalization(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("batchnorm", "batchnorm_conv")) {
            Fixture fx = Fixture.load(name);
            BatchNormalization bn = new BatchNormalization((float) fx.num("momentum"), (float) fx.num("epsilon"),
                    null);
            // the Layers factory has the same (Keras) defaults
            BatchNormalization dflt = Layers.batchNormalization();
            build(k, dflt, fx.t("x"));
            assertClose(fx.t("moving_mean_initial"), dflt.movingMean().value(), name + " default moving mean");
            assertClose(fx.t("moving_variance_initial"), dflt.movingVariance().value(),
                    name + " default moving variance");
            build(k, bn, fx.t("x"));
            bn.gamma().assign(fx.t("gamma"));
            bn.beta().assign(fx.t("beta"));
            bn.movingMean().assign(fx.t("moving_mean_initial"));
            bn.movingVariance().assign(fx.t("moving_variance_initial"));
            // one training step: y, gradients and, through the eager ASSIGN side effects, the moving statistics
            Pass p = layerPass(k, bn, true, fx.t("x"), fx.t("dy"), List.of(bn.gamma(), bn.beta()));
            assertClose(fx.t("y"), p.y(), name + " y");
            assertClose(fx.t("dx"), p.grads().get(0), name + " dx");
            assertClose(fx.t("dgamma"), p.grads().get(1), name + " dgamma");
            assertClose(fx.t("dbeta"), p.grads().get(2), name + " dbeta");
            assertClose(fx.t("moving_mean"), bn.movingMean().value(), name + " moving mean");
            assertClose(fx.t("moving_variance"), bn.movingVariance().value(), name + " moving variance");
            // inference with the updated statistics; it must not touch them
            Graph g = Graph.eager(k);
            Node y = bn.invoke(g, List.of(g.input("x", fx.t("x"))), new CallContext(false, g.constant(0f)));
            assertClose(fx.t("y_inference"), y.value(), name + " y_inference");
            assertClose(fx.t("moving_mean"), bn.movingMean().value(), name + " moving mean after inference");
            assertClose(fx.t("moving_variance"), bn.movingVariance().value(),
                    name + " moving variance after inference");
        }
    }

    /**
     * BatchNormalization after a convolution and after a Dense layer, pre-activations around 3, against the
     * float64 fixtures: every tensor within 1e-5 of its largest value (float32 PyTorch: about 3e-7), in training and
     * in inference mode, eager and compiled.
     */
    @ParameterizedTest
    @ValueSource(strings = {"eager/default", "compiled/default", "eager/scalar", "compiled/scalar"})
    void batchNormalizationAfterConvolutionAndDense(String mode) {
        String[] parts = mode.split("/");
        Kernels k = GradCheck.kernels(parts[1]);
        boolean compiled = parts[0].equals("compiled");
        for (String name : List.of("batchnorm_after_conv", "batchnorm_after_dense")) {
            Fixture fx = Fixture.load(name);
            for (String suffix : List.of("", "_inference")) {
                Layer first = fx.str("kind").equals("conv")
                        ? Layers.conv2d(fx.t("bias").size(), 3, 1, Padding.SAME, Activation.LINEAR)
                        : Layers.dense(fx.t("bias").size());
                build(k, first, fx.t("x"));
                first.trainableWeights().get(0).assign(fx.t("kernel"));
                first.trainableWeights().get(1).assign(fx.t("bias"));
                BatchNormalization bn = new BatchNormalization((float) fx.num("momentum"), (float) fx.num("epsilon"),
                        null);
                build(k, bn, fx.t("z"));
                bn.gamma().assign(fx.t("gamma"));
                bn.beta().assign(fx.t("beta"));
                bn.movingMean().assign(fx.t("moving_mean_initial"));
                bn.movingVariance().assign(fx.t("moving_variance_initial"));
                boolean training = suffix.isEmpty();
                List<Tensor> out = BatchNormPrecisionTest.run(k, compiled, training, first, bn, fx.t("x"),
                        fx.t("dy"));
                String what = name + suffix + " " + mode + ": ";
                List<String> keys = List.of("z", "y", "", "dz", "dkernel", "dbias", "dgamma", "dbeta");
                for (int i = 0; i < keys.size(); i++) {
                    if (keys.get(i).isEmpty()) {
                        continue;
                    }
                    double[] expected = BatchNormPrecisionTest.doubles(fx.t(keys.get(i) + suffix));
                    // In training the bias gradient is zero but for rounding: measured against dbeta's scale.
                    double scale = training && keys.get(i).equals("dbias")
                            ? BatchNormPrecisionTest.maxAbs(BatchNormPrecisionTest.doubles(fx.t("dbeta")))
                            : BatchNormPrecisionTest.maxAbs(expected);
                    BatchNormPrecisionTest.assertClose(expected, out.get(i), scale, 1e-5, what + keys.get(i));
                }
                if (training) {
                    assertClose(fx.t("moving_mean"), bn.movingMean().value(), what + "moving mean");
                    assertClose(fx.t("moving_variance"), bn.movingVariance().value(), what + "moving variance");
                }
            }
        }
    }

    // ---- softmax and activations ----

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void softmax(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("softmax");
        checkActivation(k, Activation.SOFTMAX, fx.t("x"), fx.t("dy"), fx.t("y"), fx.t("dx"), "softmax");
        Fixture act = Fixture.load("activations");
        checkActivation(k, Activation.SOFTMAX, act.t("softmax_x"), act.t("softmax_dy"), act.t("softmax_y"),
                act.t("softmax_dx"), "activations softmax");
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void activations(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("activations");
        assertEquals(Activation.LEAKY_SLOPE, (float) fx.num("alpha"));
        assertTrue(!fx.root().get("gelu_approximate").asBoolean(), "Brisk's GELU is the exact erf form");
        // gelu_tanh (the tanh approximation) has no Brisk counterpart and is not checked
        for (Activation a : List.of(Activation.RELU, Activation.SIGMOID, Activation.TANH, Activation.GELU,
                Activation.LEAKY_RELU)) {
            String key = a.kerasName();
            checkActivation(k, a, fx.t("x"), fx.t("dy"), fx.t(key + "_y"), fx.t(key + "_dx"), "activation " + key);
        }
    }

    private static void checkActivation(Kernels k, Activation a, Tensor x, Tensor dy, Tensor y, Tensor dx,
                                        String what) {
        // as a layer, whose input needs a batch axis: the 1-D vectors become one row
        Tensor x2 = x.shape().rank() == 1 ? x.reshape(Shape.of(1, x.size())) : x;
        Tensor dy2 = dy.reshape(x2.shape());
        Pass p = layerPass(k, Layers.activation(a), true, x2, dy2, List.of());
        assertClose(y, p.y().reshape(y.shape()), what + " y");
        assertClose(dx, p.grads().get(0).reshape(dx.shape()), what + " dx");
    }

    // ---- losses ----

    /** The loss and its gradient with respect to the predictions. */
    private static Tensor[] lossAndGrad(Kernels k, Loss loss, Tensor yTrue, Tensor yPred) {
        Graph g = Graph.eager(k);
        Node pred = g.input("pred", yPred);
        Node l = loss.compute(g, g.input("true", yTrue), pred);
        return new Tensor[] {l.value().copy(), Autodiff.gradients(g, l, List.of(pred)).get(0).value().copy()};
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void losses(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture sx = Fixture.load("softmax_xent");
        Tensor[] r = lossAndGrad(k, Losses.sparseCategoricalCrossentropy(true), sx.t("labels"), sx.t("logits"));
        assertClose(sx.t("loss"), r[0], "sparse CE loss");
        assertClose(sx.t("dlogits"), r[1], "sparse CE dlogits");
        // per-sample losses: the mean of a batch of one
        for (int i = 0; i < sx.t("labels").size(); i++) {
            Tensor[] one = lossAndGrad(k, Losses.sparseCategoricalCrossentropy(true), sx.t("labels").slice(i, i + 1),
                    sx.t("logits").slice(i, i + 1));
            assertClose(Tensor.scalar(sx.t("per_sample_loss").get(i)), one[0], "sparse CE per-sample " + i);
        }
        // the same data through categorical CE with one-hot targets
        int classes = (int) sx.num("num_classes");
        Tensor onehot = Tensor.zeros(sx.t("labels").size(), classes);
        for (int i = 0; i < onehot.shape().dim(0); i++) {
            onehot.set(i * classes + (int) sx.t("labels").get(i), 1f);
        }
        r = lossAndGrad(k, Losses.categoricalCrossentropy(true), onehot, sx.t("logits"));
        assertClose(sx.t("loss"), r[0], "categorical CE logits loss");
        assertClose(sx.t("dlogits"), r[1], "categorical CE logits dlogits");

        Fixture cx = Fixture.load("categorical_xent_probs");
        r = lossAndGrad(k, Losses.categoricalCrossentropy(false), cx.t("targets"), cx.t("probs"));
        assertClose(cx.t("loss"), r[0], "categorical CE probs loss");
        assertClose(cx.t("dprobs"), r[1], "categorical CE probs dprobs");
        r = lossAndGrad(k, Losses.sparseCategoricalCrossentropy(false), cx.t("labels"), cx.t("probs"));
        assertClose(cx.t("loss"), r[0], "sparse CE probs loss");
        assertClose(cx.t("dprobs"), r[1], "sparse CE probs dprobs");

        Fixture bx = Fixture.load("binary_xent");
        r = lossAndGrad(k, Losses.binaryCrossentropy(true), bx.t("targets"), bx.t("logits"));
        assertClose(bx.t("loss_from_logits"), r[0], "binary CE logits loss");
        assertClose(bx.t("dlogits"), r[1], "binary CE dlogits");
        r = lossAndGrad(k, Losses.binaryCrossentropy(false), bx.t("targets"), bx.t("probs"));
        assertClose(bx.t("loss_from_probs"), r[0], "binary CE probs loss");
        assertClose(bx.t("dprobs"), r[1], "binary CE dprobs");
        for (int i = 0; i < 4; i++) {
            Tensor[] one = lossAndGrad(k, Losses.binaryCrossentropy(true), bx.t("targets").slice(i, i + 1),
                    bx.t("logits").slice(i, i + 1));
            assertClose(Tensor.scalar(bx.t("per_sample_loss_from_logits").get(i)), one[0], "binary CE logits row " + i);
            one = lossAndGrad(k, Losses.binaryCrossentropy(false), bx.t("targets").slice(i, i + 1),
                    bx.t("probs").slice(i, i + 1));
            assertClose(Tensor.scalar(bx.t("per_sample_loss_from_probs").get(i)), one[0], "binary CE probs row " + i);
        }
    }

    // ---- optimizers ----

    /**
     * Runs three optimizer steps on a fresh variable holding {@code param0}, one eager graph per step (variable,
     * gradient input, hyper-parameter input, the optimizer's UPDATE op), and checks the parameter and slots after
     * each step. {@code slotKeys} name the fixture tensors of each slot, in the optimizer's slot order.
     */
    private static void runOptimizer(Kernels k, Fixture fx, Optimizer opt, String paramKey, List<String> slotKeys) {
        Variable p = new Variable("p", fx.t("param0"), true);
        for (int step = 1; step <= 3; step++) {
            Graph g = Graph.eager(k);
            Node grad = g.input("grad", fx.t("grad" + step));
            float[] hyper = opt.hyperParameters();
            assertEquals(opt.hyperParameterCount(), hyper.length);
            Node h = g.input("hyper", Tensor.of(hyper, hyper.length));
            opt.apply(g, List.of(p), List.of(grad), h);
            opt.finishStep();
            String what = fx.name() + " " + opt.name() + " step " + step;
            assertClose(fx.t(paramKey + step), p.value(), what + " " + paramKey);
            List<Variable> slots = opt.slotVariables();
            assertEquals(slotKeys.size(), slots.size(), what + " slots");
            for (int s = 0; s < slots.size(); s++) {
                assertClose(fx.t(slotKeys.get(s) + step), slots.get(s).value(), what + " " + slotKeys.get(s));
            }
        }
        assertEquals(3, opt.iterations());
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void adamAndAdamW(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture adam = Fixture.load("adam_step");
        assertKerasAdamDefaults(adam);
        runOptimizer(k, adam, Optimizers.adam((float) adam.num("learning_rate")), "param", List.of("m", "v"));
        Fixture adamw = Fixture.load("adamw_step");
        assertKerasAdamDefaults(adamw);
        runOptimizer(k, adamw, Optimizers.adamW((float) adamw.num("learning_rate"),
                (float) adamw.num("weight_decay")), "param", List.of("m", "v"));
    }

    private static void assertKerasAdamDefaults(Fixture fx) {
        assertEquals(0.9, fx.num("beta_1"), 1e-12);
        assertEquals(0.999, fx.num("beta_2"), 1e-12);
        assertEquals(1e-7, fx.num("epsilon"), 1e-20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void sgdMomentumAndNesterov(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("sgd_momentum");
        float lr = (float) fx.num("learning_rate");
        float mom = (float) fx.num("momentum");
        runOptimizer(k, fx, Optimizers.sgd(lr, mom, false), "param", List.of("velocity"));
        runOptimizer(k, fx, Optimizers.sgd(lr, mom, true), "nesterov_param", List.of("nesterov_velocity"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void rmsprop(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("rmsprop");
        assertEquals(0.9, fx.num("rho"), 1e-12);
        assertEquals(1e-7, fx.num("epsilon"), 1e-20);
        runOptimizer(k, fx, Optimizers.rmsprop((float) fx.num("learning_rate")), "param", List.of("velocity"));
    }

    // ---- end to end ----

    private static Model mlp(Fixture fx) {
        Model model = Sequential.of(Layers.input(6), Layers.dense(5, Activation.RELU), Layers.dense(4));
        model.setWeights(List.of(fx.t("kernel1"), fx.t("bias1"), fx.t("kernel2"), fx.t("bias2")));
        return model;
    }

    private static final List<String> MLP_PARAMS = List.of("kernel1", "bias1", "kernel2", "bias2");

    /** The forward pass, the loss and its gradients through the model's own graph code. */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void mlpForwardAndGradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("mlp_step");
        Model model = mlp(fx);
        Graph g = Graph.eager(k);
        Node x = g.input("x", fx.t("x"));
        Node logits = model.forward(g, List.of(x), new CallContext(true, g.constant(0f))).get(0);
        Node loss = Losses.sparseCategoricalCrossentropy(true).compute(g, g.input("labels", fx.t("labels")), logits);
        assertClose(fx.t("logits"), logits.value(), "mlp logits");
        assertClose(fx.t("loss"), loss.value(), "mlp loss");
        List<Node> vars = model.trainableVariables().stream().map(g::variable).toList();
        List<Node> grads = Autodiff.gradients(g, loss, vars);
        for (int i = 0; i < MLP_PARAMS.size(); i++) {
            assertClose(fx.t("d" + MLP_PARAMS.get(i)), grads.get(i).value(), "mlp d" + MLP_PARAMS.get(i));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"eager/default", "compiled/default", "eager/scalar", "compiled/scalar"})
    void mlpOneAdamStepWithFit(String mode) {
        String[] parts = mode.split("/");
        Fixture fx = Fixture.load("mlp_step");
        assertKerasAdamDefaults(fx);
        Model model = mlp(fx);
        ModelInternals.kernels(model, GradCheck.kernels(parts[1]));
        model.compile(Optimizers.adam((float) fx.num("learning_rate")), Losses.sparseCategoricalCrossentropy(true));
        model.runEagerly(parts[0].equals("eager"));
        Tensor x = fx.t("x");
        assertEquals(8, x.shape().dim(0));
        model.fit(x, fx.t("labels"), Fit.epochs(1).batchSize(8).shuffle(false).verbose(0));
        assertEquals(1, model.optimizer().iterations(), "exactly one step");
        List<Tensor> after = model.getWeights();
        assertEquals(4, after.size());
        for (int i = 0; i < MLP_PARAMS.size(); i++) {
            assertClose(fx.t(MLP_PARAMS.get(i) + "_after"), after.get(i), mode + " " + MLP_PARAMS.get(i) + "_after");
        }
    }
}
