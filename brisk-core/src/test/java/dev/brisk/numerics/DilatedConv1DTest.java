package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.TorchFixturesTest.assertClose;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Conv1D;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.numerics.TorchFixturesTest.Fixture;
import dev.brisk.numerics.TorchFixturesTest.Pass;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conv1D with {@code dilation_rate > 1}: against PyTorch's dilated {@code conv1d} with causal, same and valid
 * padding ({@code tools/fixtures/make_seq_wrapper_fixtures.py}), relative error at most 1e-4; finite-difference
 * gradients (eager against compiled too), on the default and the scalar kernels; a stride with a dilation is refused.
 */
class DilatedConv1DTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(45);
    }

    private static Padding padding(String name) {
        return Padding.valueOf(name.toUpperCase(Locale.ROOT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void againstPyTorch(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("conv1d_causal_dilated", "conv1d_same_dilated", "conv1d_valid_dilated")) {
            Fixture fx = Fixture.load(name);
            Conv1D layer = Layers.conv1d((int) fx.num("filters"), (int) fx.num("kernel_size"),
                    padding(fx.str("padding")), (int) fx.num("dilation_rate"), Activation.LINEAR);
            TorchFixturesTest.build(k, layer, fx.t("x"));
            layer.kernel().assign(fx.t("kernel"));
            layer.bias().assign(fx.t("bias"));
            Pass p = TorchFixturesTest.layerPass(k, layer, true, fx.t("x"), fx.t("dy"),
                    List.of(layer.kernel(), layer.bias()));
            assertClose(fx.t("y"), p.y(), name + " y");
            assertClose(fx.t("dx"), p.grads().get(0), name + " dx");
            assertClose(fx.t("dkernel"), p.grads().get(1), name + " dkernel");
            assertClose(fx.t("dbias"), p.grads().get(2), name + " dbias");
        }
    }

    private static void check(Kernels k, String what, Conv1D layer, Tensor x) {
        Tensor in = x.copy();
        Graph warm = Graph.eager(k);
        layer.invoke(warm, List.of(warm.input("x", in)), new CallContext(true, warm.input("seed", Tensor.scalar(1f))));
        List<Variable> trainable = layer.trainableWeights();
        long s = what.hashCode();
        for (Variable v : trainable) {
            v.assign(gaussian(s++, 0.5, v.value().shape().dims()));
        }
        List<Tensor> params = new ArrayList<>();
        params.add(in);
        trainable.forEach(v -> params.add(v.value()));
        GradCheck.Problem p = (g, nodes) -> {
            Node xn = g.input("x", in);
            Node y = layer.invoke(g, List.of(xn), new CallContext(true, g.input("seed", Tensor.scalar(1f))));
            nodes.add(xn);
            trainable.forEach(v -> nodes.add(g.variable(v)));
            return y;
        };
        GradCheck.check(k, what, params, p, GradCheck.EPS, GradCheck.ATOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void gradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "dilated causal tanh", Layers.conv1d(3, 2, Padding.CAUSAL, 3, Activation.TANH),
                gaussian(1, 1, 2, 7, 2));
        check(k, "dilated same", Layers.conv1d(2, 3, Padding.SAME, 2, Activation.LINEAR), gaussian(2, 1, 2, 6, 3));
        check(k, "dilated valid relu", Layers.conv1d(2, 2, Padding.VALID, 2, Activation.RELU),
                gaussian(3, 1, 2, 5, 2));
    }

    @Test
    void outputLengthsAndRefusals() {
        Conv1D causal = Layers.conv1d(4, 3, Padding.CAUSAL, 4, Activation.LINEAR);
        assertEquals(Shape.of(11, 4), causal.outputShape(List.of(Shape.of(11, 2))));
        Conv1D valid = Layers.conv1d(4, 3, Padding.VALID, 4, Activation.LINEAR);
        assertEquals(Shape.of(3, 4), valid.outputShape(List.of(Shape.of(11, 2))));
        assertThrows(IllegalArgumentException.class, () -> new Conv1D(4, 3, 2, Padding.VALID, 2, Activation.LINEAR,
                true, Initializer.glorotUniform(), Initializer.zeros(), null, "c"));
    }
}
