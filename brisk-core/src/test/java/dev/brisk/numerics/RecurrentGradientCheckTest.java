package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finite-difference checks of the recurrent layers (SimpleRNN, LSTM, GRU) with respect to their input and every
 * weight, with and without {@code returnSequences} and {@code goBackwards}, on the default and the scalar kernels;
 * {@link GradCheck} also compiles each gradient and compares it with the eager one.
 */
class RecurrentGradientCheckTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(42);
    }

    /** Checks d sum(layer(x) * R) with respect to x and every weight, the weights drawn at a moderate scale. */
    private static void check(Kernels k, String what, Layer layer, Tensor x) {
        Tensor in = x.copy();
        Graph warm = Graph.eager(k);
        layer.invoke(warm, List.of(warm.input("x", in)), new CallContext(true, warm.input("seed", Tensor.scalar(1f))));
        List<Variable> trainable = layer.trainableWeights();
        assertEquals(3, trainable.size(), what + ": kernel, recurrent kernel, bias");
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
    void simpleRnn(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "simple last", Layers.simpleRnn(3), gaussian(1, 1, 2, 4, 3));
        check(k, "simple sequences backwards", Layers.simpleRnn(3, true, true), gaussian(2, 1, 2, 4, 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void lstm(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "lstm last", Layers.lstm(3), gaussian(3, 1, 2, 4, 3));
        check(k, "lstm sequences", Layers.lstm(3, true, false), gaussian(4, 1, 3, 3, 2));
        check(k, "lstm backwards", Layers.lstm(2, false, true), gaussian(5, 1, 2, 3, 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void gru(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "gru last", Layers.gru(3), gaussian(6, 1, 2, 4, 3));
        check(k, "gru sequences", Layers.gru(3, true, false), gaussian(7, 1, 3, 3, 2));
        check(k, "gru sequences backwards", Layers.gru(2, true, true), gaussian(8, 1, 2, 3, 3));
    }
}
