package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Recurrent;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finite-difference checks of the recurrent layers with a padding mask on the input, an initial state given as
 * inputs and the final states returned ({@code returnState}, whose outputs are slices of the op's packed output, so
 * SLICE's gradient is checked too), on the default and the scalar kernels; {@link GradCheck} also compiles each
 * gradient and compares it with the eager one.
 */
class RecurrentMaskGradientCheckTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(43);
    }

    /** A mask of {@code [batch, steps]}: row r has its last {@code r % steps} steps padded, one row none. */
    private static Tensor mask(int batch, int steps) {
        Tensor m = Tensor.zeros(Shape.of(batch, steps));
        for (int r = 0; r < batch; r++) {
            for (int t = 0; t < steps; t++) {
                m.set(r * steps + t, t < steps - r % steps ? 1f : 0f);
            }
        }
        return m;
    }

    /**
     * Checks d sum(outputs * R) with respect to x, every weight and (when {@code withState}) the initial states,
     * the outputs of a returnState layer joined into one {@code [batch, width]} tensor.
     */
    private static void check(Kernels k, String what, Recurrent layer, Tensor x, boolean withState) {
        int batch = x.shape().dim(0);
        int steps = x.shape().dim(1);
        Tensor mask = mask(batch, steps);
        Tensor in = x.copy();
        List<Tensor> states = new ArrayList<>();
        if (withState) {
            for (int i = 0; i < layer.stateCount(); i++) {
                states.add(gaussian(what.hashCode() + 100 + i, 0.5, batch, layer.units()));
            }
        }
        Graph warm = Graph.eager(k);
        List<Node> warmIn = new ArrayList<>();
        warmIn.add(warm.input("x", in));
        for (int i = 0; i < states.size(); i++) {
            warmIn.add(warm.input("s" + i, states.get(i)));
        }
        layer.invokeAll(warm, warmIn, new CallContext(true, warm.input("seed", Tensor.scalar(1f))));
        List<Variable> trainable = layer.trainableWeights();
        long s = what.hashCode();
        for (Variable v : trainable) {
            v.assign(gaussian(s++, 0.5, v.value().shape().dims()));
        }
        List<Tensor> params = new ArrayList<>();
        params.add(in);
        trainable.forEach(v -> params.add(v.value()));
        params.addAll(states);
        GradCheck.Problem p = (g, nodes) -> {
            Node xn = g.input("x", in);
            g.setMask(xn, g.constant(mask));
            List<Node> inputs = new ArrayList<>();
            inputs.add(xn);
            for (int i = 0; i < states.size(); i++) {
                inputs.add(g.input("s" + i, states.get(i)));
            }
            List<Node> ys = layer.invokeAll(g, inputs, new CallContext(true, g.input("seed", Tensor.scalar(1f))));
            nodes.add(xn);
            trainable.forEach(v -> nodes.add(g.variable(v)));
            nodes.addAll(inputs.subList(1, inputs.size()));
            List<Node> flat = new ArrayList<>();
            for (Node y : ys) {
                flat.add(g.reshape(y, Shape.of(batch, y.shape().size() / batch)));
            }
            return flat.size() == 1 ? flat.get(0) : g.concat(1, flat);
        };
        GradCheck.check(k, what, params, p, GradCheck.EPS, GradCheck.ATOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void simpleRnnMasked(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "simple masked last", Layers.simpleRnn(3), gaussian(1, 1, 3, 4, 3), false);
        check(k, "simple masked sequences backwards, states", Layers.simpleRnn(3, true, true, true),
                gaussian(2, 1, 3, 4, 3), true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void lstmMasked(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "lstm masked sequences", Layers.lstm(3, true, false), gaussian(3, 1, 3, 4, 2), false);
        check(k, "lstm masked last, states", Layers.lstm(2, false, false, true), gaussian(4, 1, 3, 3, 3), true);
        check(k, "lstm masked backwards sequences, states", Layers.lstm(2, true, true, true),
                gaussian(5, 1, 3, 3, 2), true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void gruMasked(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "gru masked last", Layers.gru(3), gaussian(6, 1, 3, 4, 3), false);
        check(k, "gru masked sequences, states", Layers.gru(2, true, false, true), gaussian(7, 1, 3, 3, 2), true);
        check(k, "gru masked backwards last, states", Layers.gru(2, false, true, true), gaussian(8, 1, 3, 3, 3),
                true);
    }
}
