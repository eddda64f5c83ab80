package dev.brisk.numerics;

import static dev.brisk.numerics.TorchFixturesTest.assertClose;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brisk.backend.Kernels;
import dev.brisk.nn.Activation;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Conv1D;
import dev.brisk.nn.layers.Embedding;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.numerics.TorchFixturesTest.Fixture;
import dev.brisk.numerics.TorchFixturesTest.Pass;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Embedding and Conv1D against PyTorch (tools/fixtures/make_torch_fixtures.py): outputs and gradients on the same
 * weights, in Keras' layouts, on both backends.
 */
class SequenceFixturesTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(7);
    }

    private static Tensor ints(Fixture fx, String key) {
        JsonNode e = fx.root().get("tensors").get(key);
        int[] dims = new int[e.get("shape").size()];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = e.get("shape").get(i).asInt();
        }
        int[] v = new int[e.get("data").size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = e.get("data").get(i).asInt();
        }
        return Tensor.ofInts(v, dims);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void embedding(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("embedding");
        Embedding layer = Layers.embedding((int) fx.num("input_dim"), (int) fx.num("output_dim"));
        Tensor ids = ints(fx, "ids");
        TorchFixturesTest.build(k, layer, ids);
        layer.embeddings().assign(fx.t("embeddings"));
        dev.brisk.graph.Graph g = dev.brisk.graph.Graph.eager(k);
        var y = layer.invoke(g, List.of(g.input("ids", ids)),
                new dev.brisk.nn.CallContext(true, g.input("seed", Tensor.scalar(0f))));
        var f = g.sumAll(g.mul(y, g.input("dy", fx.t("dy"))));
        var grad = dev.brisk.graph.Autodiff.gradients(g, f, List.of(g.variable(layer.embeddings()))).get(0);
        assertClose(fx.t("y"), y.value(), "embedding y");
        assertClose(fx.t("dembeddings"), grad.value(), "embedding dembeddings");
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void conv1d(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("conv1d_causal", "conv1d_causal_stride2", "conv1d_same_stride2")) {
            Fixture fx = Fixture.load(name);
            Padding padding = switch (fx.str("padding")) {
                case "causal" -> Padding.CAUSAL;
                case "same" -> Padding.SAME;
                default -> Padding.VALID;
            };
            Conv1D layer = Layers.conv1d((int) fx.num("filters"), (int) fx.num("kernel_size"),
                    (int) fx.num("strides"), padding, Activation.LINEAR);
            TorchFixturesTest.build(k, layer, fx.t("x"));
            assertEquals(fx.t("kernel").shape(), layer.kernel().shape(), name + ": Keras kernel layout");
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
}
