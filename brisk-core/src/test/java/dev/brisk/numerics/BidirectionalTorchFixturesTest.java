package dev.brisk.numerics;

import static dev.brisk.numerics.TorchFixturesTest.assertClose;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Bidirectional;
import dev.brisk.nn.layers.GRU;
import dev.brisk.nn.layers.LSTM;
import dev.brisk.nn.layers.Recurrent;
import dev.brisk.numerics.TorchFixturesTest.Fixture;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Bidirectional} LSTM and GRU against PyTorch's bidirectional modules on the same weights
 * ({@code tools/fixtures/make_seq_wrapper_fixtures.py}, which states the layout conversions), every merge mode, with
 * and without a padding mask (PyTorch's packed sequences): output and the gradients of {@code sum(dy * y)} with
 * respect to the input and both directions' weights, relative error at most 1e-4, on the default and the scalar
 * kernels.
 */
class BidirectionalTorchFixturesTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void bidirectionalLayers(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("bidir_lstm_concat_seq", "bidir_gru_sum_last", "bidir_lstm_masked_concat_seq",
                "bidir_gru_masked_ave_last", "bidir_lstm_masked_mul_last")) {
            Fixture fx = Fixture.load(name);
            int units = (int) fx.num("units");
            boolean sequences = fx.root().get("return_sequences").asBoolean();
            boolean masked = fx.root().get("masked").asBoolean();
            Recurrent template = switch (fx.str("cell")) {
                case "lstm" -> new LSTM(units, sequences, false, null);
                case "gru" -> new GRU(units, sequences, false, null);
                default -> throw new IllegalArgumentException(fx.str("cell"));
            };
            Bidirectional layer = new Bidirectional(template,
                    Bidirectional.MergeMode.valueOf(fx.str("merge_mode").toUpperCase(Locale.ROOT)), null);
            Tensor x = fx.t("x");
            Tensor mask = masked ? fx.t("mask") : null;
            Graph warm = Graph.eager(k);
            layer.invoke(warm, List.of(warm.input("x", x)), new CallContext(false, warm.input("seed",
                    Tensor.scalar(0f))));
            List<Variable> weights = new ArrayList<>();
            for (Recurrent r : List.of(layer.forwardLayer(), layer.backwardLayer())) {
                String d = r == layer.forwardLayer() ? "forward" : "backward";
                assertEquals(d + "_" + template.name() + "/kernel", r.kernel().name(), "Keras' weight names");
                r.kernel().assign(fx.t(d + "_kernel"));
                r.recurrentKernel().assign(fx.t(d + "_recurrent_kernel"));
                r.bias().assign(fx.t(d + "_bias"));
                weights.addAll(List.of(r.kernel(), r.recurrentKernel(), r.bias()));
            }
            assertEquals(weights, layer.trainableWeights(), name + ": the copies' weights, forward first");
            Graph g = Graph.eager(k);
            Node xn = g.input("x", x);
            if (mask != null) {
                g.setMask(xn, g.constant(mask));
            }
            Node y = layer.invoke(g, List.of(xn), new CallContext(true, g.input("seed", Tensor.scalar(0f))));
            Node f = g.sumAll(g.mul(y, g.input("dy", fx.t("dy"))));
            List<Node> wrt = new ArrayList<>();
            wrt.add(xn);
            weights.forEach(v -> wrt.add(g.variable(v)));
            List<Node> grads = Autodiff.gradients(g, f, wrt);
            assertClose(fx.t("y"), y.value(), name + " y");
            assertClose(fx.t("dx"), grads.get(0).value(), name + " dx");
            String[] names = {"kernel", "recurrent_kernel", "bias"};
            for (int i = 0; i < 6; i++) {
                String key = "d" + (i < 3 ? "forward_" : "backward_") + names[i % 3];
                assertClose(fx.t(key), grads.get(1 + i).value(), name + " " + key);
            }
        }
    }
}
