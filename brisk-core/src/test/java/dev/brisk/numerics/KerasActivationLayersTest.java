package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.LayerGradientCheckTest.checkLayer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keras 3's activation functions and the activation, merge and reshaping layers of issue 28: values against Keras'
 * formulas written out in double, gradients by finite differences (eager and compiled, vector and scalar kernels).
 */
class KerasActivationLayersTest {
    /** Inputs spread over [-5, 5], none within 0.1 of a kink (0, +-3, 6). */
    private static final float[] XS = {-4.7f, -3.4f, -2.6f, -1.3f, -0.6f, -0.2f, 0.3f, 0.8f, 1.7f, 2.4f, 3.5f, 4.9f};

    @BeforeEach
    void seed() {
        RandomSeed.set(11);
    }

    private static double softplus(double x) {
        return Math.log1p(Math.exp(x));
    }

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    private static double hardSigmoid(double x) {
        return Math.min(Math.max(x + 3, 0), 6) / 6;
    }

    private static DoubleUnaryOperator formula(Activation a) {
        return switch (a) {
            case ELU -> x -> x > 0 ? x : Math.expm1(x);
            case SELU -> x -> 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * Math.expm1(x));
            case SILU -> x -> x * sigmoid(x);
            case SOFTPLUS -> KerasActivationLayersTest::softplus;
            case SOFTSIGN -> x -> x / (1 + Math.abs(x));
            case RELU6 -> x -> Math.min(Math.max(x, 0), 6);
            case HARD_SIGMOID -> KerasActivationLayersTest::hardSigmoid;
            case HARD_SILU -> x -> x * hardSigmoid(x);
            case MISH -> x -> x * Math.tanh(softplus(x));
            case EXPONENTIAL -> Math::exp;
            default -> null;
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void activationsFollowKerasFormulasAndTheirGradientsCheck(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor x = Tensor.of(XS.clone(), 3, 4);
        for (Activation a : Activation.values()) {
            DoubleUnaryOperator f = formula(a);
            if (f == null) {
                continue; // the older activations have their own tests
            }
            Graph g = Graph.eager(k);
            Tensor y = a.apply(g, g.input("x", x)).value();
            for (int i = 0; i < XS.length; i++) {
                double expected = f.applyAsDouble(XS[i]);
                assertEquals(expected, y.get(i), 2e-6 * Math.max(1, Math.abs(expected)), a + " at " + XS[i]);
            }
            GradCheck.op(k, "activation " + a, 1e-3, (gr, xs) -> a.apply(gr, xs.get(0)), x);
        }
    }

    @Test
    void softplusAndMishDoNotOverflow() {
        Graph g = Graph.eager(GradCheck.kernels("default"));
        Node x = g.input("x", Tensor.of(new float[] {-200, 200}, 2));
        Tensor sp = Activation.SOFTPLUS.apply(g, x).value();
        Tensor mish = Activation.MISH.apply(g, x).value();
        assertEquals(0, sp.get(0), 1e-30);
        assertEquals(200, sp.get(1), 1e-4);
        assertEquals(0, mish.get(0), 1e-30);
        assertEquals(200, mish.get(1), 1e-4);
    }

    @Test
    void kerasNamesAndAliasesResolve() {
        assertEquals(Activation.SILU, Activation.fromKerasName("swish"));
        assertEquals(Activation.HARD_SILU, Activation.fromKerasName("hard_swish"));
        for (Activation a : Activation.values()) {
            assertEquals(a, Activation.fromKerasName(a.kerasName()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Activation.fromKerasName("sparkle"));
        assertTrue(e.getMessage().contains("sparkle") && e.getMessage().contains("mish"), e.getMessage());
    }

    private static Tensor apply(Layer layer, Tensor... inputs) {
        Graph g = Graph.eager(GradCheck.kernels("default"));
        List<Node> xs = new java.util.ArrayList<>();
        for (Tensor t : inputs) {
            xs.add(g.input("x", t));
        }
        return layer.invoke(g, xs, new CallContext(false, g.input("seed", Tensor.scalar(1f)))).value();
    }

    @Test
    void reluLayerOptionsAsKeras() {
        Tensor x = Tensor.of(new float[] {-3, -1, 0.5f, 2, 7}, 1, 5);
        // Keras: relu(x, negative_slope=0.5, max_value=6, threshold=1) -> [-2, -1, 0, 2, 6]
        float[] y = apply(Layers.relu(6f, 0.5f, 1f), x).toArray();
        assertEquals(List.of(-2f, -1f, -0.25f, 2f, 6f), List.of(y[0], y[1], y[2], y[3], y[4]));
        float[] leaky = apply(Layers.leakyRelu(), x).toArray();
        assertEquals(-0.9f, leaky[0], 1e-6);
        float[] capped = apply(Layers.relu(6f, 0f, 0f), x).toArray();
        assertEquals(6f, capped[4]);
        assertEquals(0f, capped[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void activationLayersGradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor x = Tensor.of(XS.clone(), 3, 4);
        checkLayer(k, "relu options", Layers.relu(4f, 0.1f, 0.5f), true, null, x);
        checkLayer(k, "leaky relu", Layers.leakyRelu(0.3f), true, null, x);
        checkLayer(k, "elu", Layers.elu(0.7f), true, null, x);
        checkLayer(k, "softmax axis 1", Layers.softmax(1), true, null, gaussian(4, 1, 2, 3, 4));
        checkLayer(k, "prelu per element", Layers.prelu(), true, List.of(gaussian(5, 0.5, 4)), x);
        checkLayer(k, "prelu per channel", Layers.prelu(1, 2), true, List.of(gaussian(6, 0.5, 1, 1, 2)),
                Tensor.of(XS.clone(), 1, 3, 2, 2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void mergeAndReshapingLayerGradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor a = gaussian(7, 1, 2, 3);
        Tensor b = gaussian(8, 1, 2, 3);
        Tensor c = gaussian(9, 1, 2, 3);
        checkLayer(k, "multiply", Layers.multiply(), true, null, a, b, c);
        checkLayer(k, "subtract", Layers.subtract(), true, null, a, b);
        checkLayer(k, "average", Layers.average(), true, null, a, b, c);
        checkLayer(k, "maximum", Layers.maximum(), true, null, a, b);
        checkLayer(k, "minimum", Layers.minimum(), true, null, a, b, c);
        checkLayer(k, "permute", Layers.permute(2, 1), true, null, gaussian(10, 1, 2, 3, 4));
        checkLayer(k, "repeat vector", Layers.repeatVector(3), true, null, a);
        checkLayer(k, "upsampling", Layers.upSampling2d(2), true, null, gaussian(11, 1, 2, 2, 3, 2));
        checkLayer(k, "zero padding", Layers.zeroPadding2d(1), true, null, gaussian(12, 1, 2, 2, 3, 2));
    }

    @Test
    void mergeAndReshapingValues() {
        Tensor a = Tensor.of(new float[] {1, -2, 3, 4}, 2, 2);
        Tensor b = Tensor.of(new float[] {2, 5, -1, 0}, 2, 2);
        assertEquals(List.of(-1f, -7f, 4f, 4f), asList(apply(Layers.subtract(), a, b)));
        assertEquals(List.of(1.5f, 1.5f, 1f, 2f), asList(apply(Layers.average(), a, b)));
        assertEquals(List.of(2f, 5f, 3f, 4f), asList(apply(Layers.maximum(), a, b)));
        assertEquals(List.of(2f, -10f, -3f, 0f), asList(apply(Layers.multiply(), a, b)));
        assertEquals(List.of(1f, -2f, 1f, -2f, 3f, 4f, 3f, 4f), asList(apply(Layers.repeatVector(2), a)));
        // permute [1, 2, 3] -> [1, 3, 2]: [[1, 2, 3], [4, 5, 6]] transposed
        Tensor s = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 1, 2, 3);
        assertEquals(List.of(1f, 4f, 2f, 5f, 3f, 6f), asList(apply(Layers.permute(2, 1), s)));
        // a 1x2 one-channel image upsampled 2x: each pixel becomes a 2x2 block
        Tensor img = Tensor.of(new float[] {1, 2}, 1, 1, 2, 1);
        assertEquals(List.of(1f, 1f, 2f, 2f, 1f, 1f, 2f, 2f), asList(apply(Layers.upSampling2d(2), img)));
        Tensor padded = apply(Layers.zeroPadding2d(1), img);
        assertEquals(dev.brisk.tensor.Shape.of(1, 3, 4, 1), padded.shape());
        assertEquals(List.of(0f, 0f, 0f, 0f, 0f, 1f, 2f, 0f, 0f, 0f, 0f, 0f), asList(padded));
    }

    @Test
    void badShapesNameTheLayer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Layers.subtract().outputShape(List.of(dev.brisk.tensor.Shape.of(3), dev.brisk.tensor.Shape.of(3),
                        dev.brisk.tensor.Shape.of(3))));
        assertTrue(e.getMessage().contains("Subtract needs exactly 2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Layers.permute(1, 3).outputShape(List.of(dev.brisk.tensor.Shape.of(2, 3))));
        assertTrue(e.getMessage().contains("not a permutation"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Layers.softmax(0));
    }

    private static List<Float> asList(Tensor t) {
        float[] v = t.toArray();
        List<Float> out = new java.util.ArrayList<>();
        for (float f : v) {
            out.add(f);
        }
        return out;
    }
}
