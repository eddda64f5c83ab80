package dev.brisk.numerics;

import static dev.brisk.numerics.TorchFixturesTest.assertClose;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.LayerNormalization;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.numerics.TorchFixturesTest.Fixture;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * LayerNormalization and MultiHeadAttention against the PyTorch fixtures of
 * {@code tools/fixtures/make_attention_fixtures.py} (Keras 3 weight layouts; the script states the conversion to
 * PyTorch's): outputs and the gradients of {@code sum(dy * y)} with respect to inputs and weights, within
 * {@link TorchFixturesTest#RTOL}, on the default and the scalar kernels.
 */
class AttentionFixturesTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(7);
    }

    /** The output and the gradients with respect to the inputs, then the weights. */
    private static List<Tensor> pass(Kernels k, Layer layer, List<Tensor> inputs, Tensor dy, List<Variable> wrt) {
        Graph g = Graph.eager(k);
        List<Node> in = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            in.add(g.input("x" + i, inputs.get(i)));
        }
        Node y = layer.invoke(g, in, new CallContext(true, g.input("seed", Tensor.scalar(0f))));
        Node f = g.sumAll(g.mul(y, g.input("dy", dy)));
        List<Node> nodes = new ArrayList<>(in);
        wrt.forEach(v -> nodes.add(g.variable(v)));
        List<Tensor> out = new ArrayList<>();
        out.add(y.value().copy());
        Autodiff.gradients(g, f, nodes).forEach(n -> out.add(n.value().copy()));
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void layerNormalization(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("layernorm");
        LayerNormalization ln = Layers.layerNormalization();
        TorchFixturesTest.build(k, ln, fx.t("x"));
        assertClose(Tensor.of(new float[] {(float) fx.num("epsilon")}, 1), Tensor.of(new float[] {ln.epsilon()}, 1),
                "default epsilon");
        ln.gamma().assign(fx.t("gamma"));
        ln.beta().assign(fx.t("beta"));
        List<Tensor> r = pass(k, ln, List.of(fx.t("x")), fx.t("dy"), List.of(ln.gamma(), ln.beta()));
        assertClose(fx.t("y"), r.get(0), "layernorm y");
        assertClose(fx.t("dx"), r.get(1), "layernorm dx");
        assertClose(fx.t("dgamma"), r.get(2), "layernorm dgamma");
        assertClose(fx.t("dbeta"), r.get(3), "layernorm dbeta");
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void causalSelfAttention(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("mha_causal");
        MultiHeadAttention mha = Layers.multiHeadAttention((int) fx.num("num_heads"), (int) fx.num("key_dim"), true);
        Tensor x = fx.t("query");
        List<Tensor> r = run(k, mha, fx, List.of(x, x));
        assertClose(fx.t("y"), r.get(0), "mha_causal y");
        // query, value and key are the same tensor: its gradient is the sum of the three.
        Tensor dx = r.get(1).copy();
        for (int i = 0; i < dx.size(); i++) {
            dx.set(i, r.get(1).get(i) + r.get(2).get(i));
        }
        assertClose(fx.t("dquery"), dx, "mha_causal dx");
        checkWeightGradients(fx, r, 3, "mha_causal");
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void crossAttentionWithAnAttentionMask(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load("mha_cross_masked");
        int heads = (int) fx.num("num_heads");
        int keyDim = (int) fx.num("key_dim");
        MultiHeadAttention mha = new MultiHeadAttention(heads, keyDim, keyDim, 0f, true, false, true, null);
        List<Tensor> r = run(k, mha, fx, List.of(fx.t("query"), fx.t("value"), fx.t("key"), fx.t("allowed")));
        assertClose(fx.t("y"), r.get(0), "mha_cross_masked y");
        assertClose(fx.t("dquery"), r.get(1), "mha_cross_masked dquery");
        assertClose(fx.t("dvalue"), r.get(2), "mha_cross_masked dvalue");
        assertClose(fx.t("dkey"), r.get(3), "mha_cross_masked dkey");
        checkWeightGradients(fx, r, 4, "mha_cross_masked");
    }

    private static final String[] WEIGHTS = {"query_kernel", "query_bias", "key_kernel", "key_bias", "value_kernel",
        "value_bias", "output_kernel", "output_bias"};

    /** Builds the layer, sets the fixture's weights, and runs a pass with gradients for every weight. */
    private static List<Tensor> run(Kernels k, MultiHeadAttention mha, Fixture fx, List<Tensor> inputs) {
        Graph g = Graph.eager(k);
        List<Node> in = new ArrayList<>();
        for (Tensor t : inputs) {
            in.add(g.input("x", t));
        }
        mha.invoke(g, in, new CallContext(false, g.input("seed", Tensor.scalar(0f))));
        List<Variable> vars = weights(mha);
        for (int i = 0; i < WEIGHTS.length; i++) {
            vars.get(i).assign(fx.t(WEIGHTS[i]));
        }
        List<Tensor> r = pass(k, mha, inputs, fx.t("dy"), vars);
        if (inputs.size() == 4) {
            r.remove(4); // the mask's gradient
        }
        return r;
    }

    private static List<Variable> weights(MultiHeadAttention mha) {
        return new ArrayList<>(List.of(mha.queryKernel(), mha.queryBias(), mha.keyKernel(), mha.keyBias(),
                mha.valueKernel(), mha.valueBias(), mha.outputKernel(), mha.outputBias()));
    }

    private static void checkWeightGradients(Fixture fx, List<Tensor> r, int first, String what) {
        for (int i = 0; i < WEIGHTS.length; i++) {
            assertClose(fx.t("d" + WEIGHTS[i]), r.get(first + i), what + " d" + WEIGHTS[i]);
        }
    }
}
