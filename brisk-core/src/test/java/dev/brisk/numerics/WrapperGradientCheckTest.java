package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Bidirectional;
import dev.brisk.nn.layers.Layers;
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
 * Finite-difference checks of the wrappers: {@code Bidirectional} over each cell and merge mode, masked, with its
 * states returned (all outputs joined), and {@code TimeDistributed} over Dense and Conv1D; on the default and the
 * scalar kernels, each gradient also compiled and compared with the eager one ({@link GradCheck}).
 */
class WrapperGradientCheckTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(44);
    }

    private static void check(Kernels k, String what, Layer layer, Tensor x, Tensor mask) {
        Tensor in = x.copy();
        int batch = x.shape().dim(0);
        Graph warm = Graph.eager(k);
        layer.invokeAll(warm, List.of(warm.input("x", in)), new CallContext(true, warm.input("seed",
                Tensor.scalar(1f))));
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
            if (mask != null) {
                g.setMask(xn, g.constant(mask));
            }
            List<Node> ys = layer.invokeAll(g, List.of(xn), new CallContext(true, g.input("seed",
                    Tensor.scalar(1f))));
            nodes.add(xn);
            trainable.forEach(v -> nodes.add(g.variable(v)));
            List<Node> flat = new ArrayList<>();
            for (Node y : ys) {
                flat.add(g.reshape(y, Shape.of(batch, y.shape().size() / batch)));
            }
            return flat.size() == 1 ? flat.get(0) : g.concat(1, flat);
        };
        GradCheck.check(k, what, params, p, GradCheck.EPS, GradCheck.ATOL);
    }

    private static Tensor mask(int batch, int steps) {
        Tensor m = Tensor.zeros(Shape.of(batch, steps));
        for (int r = 0; r < batch; r++) {
            for (int t = 0; t < steps - r; t++) {
                m.set(r * steps + t, 1f);
            }
        }
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void bidirectional(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "bidirectional lstm concat sequences, masked",
                Layers.bidirectional(Layers.lstm(2, true, false)), gaussian(1, 1, 3, 4, 2), mask(3, 4));
        check(k, "bidirectional gru sum last, states",
                Layers.bidirectional(Layers.gru(2, false, false, true), Bidirectional.MergeMode.SUM),
                gaussian(2, 1, 2, 3, 3), null);
        check(k, "bidirectional simple mul sequences, masked",
                Layers.bidirectional(Layers.simpleRnn(3, true, false), Bidirectional.MergeMode.MUL),
                gaussian(3, 1, 3, 4, 2), mask(3, 4));
        check(k, "bidirectional lstm ave last, masked, states",
                Layers.bidirectional(Layers.lstm(2, false, true, true), Bidirectional.MergeMode.AVE),
                gaussian(4, 1, 3, 3, 2), mask(3, 3));
        check(k, "bidirectional gru none sequences, masked, states",
                Layers.bidirectional(Layers.gru(2, true, false, true), Bidirectional.MergeMode.NONE),
                gaussian(7, 1, 3, 4, 2), mask(3, 4));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void timeDistributed(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "time distributed dense", Layers.timeDistributed(Layers.dense(3)), gaussian(5, 1, 2, 3, 4), null);
        check(k, "time distributed conv1d", Layers.timeDistributed(Layers.conv1d(2, 2, dev.brisk.nn.Activation.TANH)),
                gaussian(6, 1, 2, 3, 4, 2), null);
    }
}
