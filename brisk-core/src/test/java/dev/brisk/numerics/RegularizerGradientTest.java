package dev.brisk.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.Regularizer;
import dev.brisk.tensor.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keras' L1, L2 and L1L2 penalties: their values ({@code l1 sum|w| + l2 sum w^2}) and finite-difference checks of
 * their gradients ({@code l1 sign(w) + 2 l2 w}), on weights kept away from 0 where |w| has no derivative.
 */
class RegularizerGradientTest {
    private static Tensor weights() {
        float[] v = new float[24];
        java.util.SplittableRandom r = new java.util.SplittableRandom(28);
        for (int i = 0; i < v.length; i++) {
            double m = 0.2 + 0.8 * r.nextDouble();
            v[i] = (float) (r.nextBoolean() ? m : -m);
        }
        return Tensor.of(v, 4, 6);
    }

    private static double value(Kernels k, Regularizer reg, Tensor w) {
        Graph g = Graph.eager(k);
        return reg.penalty(g, g.input("w", w)).value().get(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void valuesAndGradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor w = weights();
        double abs = 0;
        double sq = 0;
        for (int i = 0; i < w.size(); i++) {
            abs += Math.abs(w.get(i));
            sq += (double) w.get(i) * w.get(i);
        }
        assertEquals(0.01 * abs, value(k, Regularizer.l1(0.01f), w), 1e-6);
        assertEquals(0.02 * sq, value(k, Regularizer.l2(0.02f), w), 1e-6);
        assertEquals(0.03 * abs + 0.04 * sq, value(k, Regularizer.l1l2(0.03f, 0.04f), w), 1e-6);
        for (Regularizer reg : new Regularizer[] {Regularizer.l1(0.3f), Regularizer.l2(0.2f),
            Regularizer.l1l2(0.3f, 0.2f)}) {
            GradCheck.op(k, reg.toString(), (g, xs) -> reg.penalty(g, xs.get(0)), w);
        }
    }
}
