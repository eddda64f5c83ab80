package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.LayerNormalization;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finite-difference checks of LayerNormalization and MultiHeadAttention with respect to every input and trainable
 * weight, with the compiled plan agreeing with eager execution ({@link GradCheck}), on both backends.
 */
class AttentionLayerGradientTest {
    private static final float SEED_VALUE = 77f;

    @BeforeEach
    void seed() {
        RandomSeed.set(11);
    }

    private static void checkLayer(Kernels k, String what, Layer layer, boolean training, Tensor... inputs) {
        List<Tensor> in = new ArrayList<>();
        for (Tensor t : inputs) {
            in.add(t.copy());
        }
        Graph warm = Graph.eager(k);
        layer.invoke(warm, in.stream().map(t -> warm.input("x", t)).toList(),
                new CallContext(training, warm.input("seed", Tensor.scalar(SEED_VALUE))));
        List<Variable> trainable = layer.trainableWeights();
        // Non-zero biases and a scale away from one, so that every weight's gradient is exercised.
        long s = 900;
        for (Variable v : trainable) {
            Tensor t = v.value();
            Tensor noise = gaussian(s++, 0.3, t.shape().dims());
            for (int i = 0; i < t.size(); i++) {
                t.set(i, t.get(i) + noise.get(i));
            }
        }
        List<Tensor> params = new ArrayList<>(in);
        trainable.forEach(v -> params.add(v.value()));
        GradCheck.Problem p = (g, nodes) -> {
            List<Node> xs = new ArrayList<>();
            for (int i = 0; i < in.size(); i++) {
                xs.add(g.input("x" + i, in.get(i)));
            }
            Node y = layer.invoke(g, xs, new CallContext(training, g.input("seed", Tensor.scalar(SEED_VALUE))));
            nodes.addAll(xs);
            trainable.forEach(v -> nodes.add(g.variable(v)));
            return y;
        };
        GradCheck.check(k, what, params, p, GradCheck.EPS, GradCheck.ATOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void layerNormalization(String backend) {
        Kernels k = GradCheck.kernels(backend);
        checkLayer(k, "LayerNormalization", Layers.layerNormalization(), true, gaussian(1, 1.5, 2, 3, 5));
        checkLayer(k, "LayerNormalization without center and scale",
                new LayerNormalization(-1, 1e-3f, false, false, null), true, gaussian(2, 1.5, 4, 6));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void causalSelfAttention(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor x = gaussian(3, 1, 2, 4, 6);
        checkLayer(k, "MultiHeadAttention causal", Layers.multiHeadAttention(2, 3, true), true, x, x);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void crossAttentionWithKeyAndValueSizesThatDiffer(String backend) {
        Kernels k = GradCheck.kernels(backend);
        MultiHeadAttention mha = new MultiHeadAttention(3, 2, 4, 0f, true, false, false, null);
        checkLayer(k, "MultiHeadAttention cross", mha, true, gaussian(4, 1, 2, 3, 5), gaussian(5, 1, 2, 4, 3),
                gaussian(6, 1, 2, 4, 7));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void attentionDropoutWithoutBiases(String backend) {
        Kernels k = GradCheck.kernels(backend);
        // The step's seed fixes the dropout mask, so the function is smooth in the inputs and weights.
        MultiHeadAttention mha = new MultiHeadAttention(2, 2, 2, 0.3f, false, true, false, null);
        Tensor x = gaussian(7, 1, 2, 5, 4);
        checkLayer(k, "MultiHeadAttention dropout", mha, true, x, x);
    }
}
