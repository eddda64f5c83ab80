package dev.brisk.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleBinaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keras' regression, probability and margin losses: each value against Keras 3's formula written out here in double
 * precision (element by element, independent of the graph code), and each gradient against finite differences, in
 * eager and compiled form, on the vector and scalar kernels.
 */
class KerasLossesTest {
    private static final int ROWS = 4;
    private static final int COLS = 3;

    private static Tensor random(long seed, double low, double high) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[ROWS * COLS];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (low + (high - low) * r.nextDouble());
        }
        return Tensor.of(v, ROWS, COLS);
    }

    private static double value(Kernels k, Loss loss, Tensor yTrue, Tensor yPred) {
        Graph g = Graph.eager(k);
        Node l = loss.compute(g, g.input("true", yTrue), g.input("pred", yPred));
        return l.value().get(0);
    }

    /** The mean over all elements of {@code f(t, p)}: Keras' mean over the last axis, then over the batch. */
    private static double meanOf(Tensor yTrue, Tensor yPred, DoubleBinaryOperator f) {
        double s = 0;
        for (int i = 0; i < yPred.size(); i++) {
            s += f.applyAsDouble(yTrue.get(i), yPred.get(i));
        }
        return s / yPred.size();
    }

    private static void check(Kernels k, String what, Loss loss, Tensor yTrue, Tensor yPred, double expected) {
        assertEquals(expected, value(k, loss, yTrue, yPred), 1e-5 * Math.max(1, Math.abs(expected)), what);
        Tensor pred = yPred.copy();
        GradCheck.Problem p = (g, nodes) -> {
            Node pn = g.input("pred", pred);
            nodes.add(pn);
            return loss.compute(g, g.input("true", yTrue), pn);
        };
        GradCheck.check(k, "loss " + what, List.of(pred), p, 1e-3, GradCheck.LOSS_ATOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void regressionLosses(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor t = random(1, -2, 2);
        Tensor p = random(2, -2, 2);
        // Errors away from the kinks (|e| = delta for Huber, 0 for the absolute value) for the finite differences.
        for (int i = 0; i < p.size(); i++) {
            double e = p.get(i) - t.get(i);
            if (Math.abs(Math.abs(e) - 0.5) < 0.05 || Math.abs(e) < 0.05) {
                p.set(i, p.get(i) + 0.2f);
            }
        }
        check(k, "huber 0.5", Losses.huber(0.5f), t, p, meanOf(t, p, (a, b) -> {
            double e = Math.abs(b - a);
            return e <= 0.5 ? 0.5 * e * e : 0.5 * (e - 0.25);
        }));
        check(k, "log_cosh", Losses.logCosh(), t, p, meanOf(t, p, (a, b) -> Math.log(Math.cosh(b - a))));
        check(k, "MAPE", Losses.meanAbsolutePercentageError(), t, p,
                meanOf(t, p, (a, b) -> 100 * Math.abs(a - b) / Math.max(Math.abs(a), 1e-7)));
        Tensor tp = random(3, 0.1, 3);
        Tensor pp = random(4, 0.1, 3);
        check(k, "MSLE", Losses.meanSquaredLogarithmicError(), tp, pp,
                meanOf(tp, pp, (a, b) -> Math.pow(Math.log(b + 1) - Math.log(a + 1), 2)));
        check(k, "poisson", Losses.poisson(), tp, pp, meanOf(tp, pp, (a, b) -> b - a * Math.log(b + 1e-7)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void logCoshStaysFiniteForLargeErrors(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor t = Tensor.of(new float[] {0, 0}, 2, 1);
        Tensor p = Tensor.of(new float[] {200, -200}, 2, 1);
        assertEquals(200 - Math.log(2), value(k, Losses.logCosh(), t, p), 1e-3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void probabilityLosses(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor t = rowsSummingToOne(random(5, 0.05, 1));
        Tensor p = rowsSummingToOne(random(6, 0.05, 1));
        double kl = 0;
        double cosine = 0;
        for (int r = 0; r < ROWS; r++) {
            double dot = 0;
            double nt = 0;
            double np = 0;
            for (int c = 0; c < COLS; c++) {
                double a = t.get(r * COLS + c);
                double b = p.get(r * COLS + c);
                kl += a * Math.log(a / b);
                dot += a * b;
                nt += a * a;
                np += b * b;
            }
            cosine -= dot / Math.sqrt(nt * np);
        }
        check(k, "kl_divergence", Losses.klDivergence(), t, p, kl / ROWS);
        check(k, "cosine_similarity", Losses.cosineSimilarity(), t, random(7, -1, 1),
                cosineOf(t, random(7, -1, 1)));
        assertEquals(cosine / ROWS, value(k, Losses.cosineSimilarity(), t, p), 1e-6);
    }

    private static double cosineOf(Tensor t, Tensor p) {
        double total = 0;
        for (int r = 0; r < ROWS; r++) {
            double dot = 0;
            double nt = 0;
            double np = 0;
            for (int c = 0; c < COLS; c++) {
                double a = t.get(r * COLS + c);
                double b = p.get(r * COLS + c);
                dot += a * b;
                nt += a * a;
                np += b * b;
            }
            total -= dot / Math.sqrt(nt * np);
        }
        return total / ROWS;
    }

    private static Tensor rowsSummingToOne(Tensor x) {
        for (int r = 0; r < ROWS; r++) {
            double s = 0;
            for (int c = 0; c < COLS; c++) {
                s += x.get(r * COLS + c);
            }
            for (int c = 0; c < COLS; c++) {
                x.set(r * COLS + c, (float) (x.get(r * COLS + c) / s));
            }
        }
        return x;
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void hingeLossesReadZeroOneTargetsAsMinusOneOne(String backend) {
        Kernels k = GradCheck.kernels(backend);
        float[] signs = {1, -1, -1, 1, 1, -1, 1, 1, -1, -1, 1, -1};
        float[] bits = new float[signs.length];
        for (int i = 0; i < signs.length; i++) {
            bits[i] = signs[i] > 0 ? 1 : 0;
        }
        Tensor pm = Tensor.of(signs, ROWS, COLS);
        Tensor zeroOne = Tensor.of(bits, ROWS, COLS);
        Tensor p = random(8, -2, 2);
        for (int i = 0; i < p.size(); i++) {
            if (Math.abs(1 - signs[i] * p.get(i)) < 0.05) {
                p.set(i, p.get(i) + 0.2f); // away from the hinge's kink
            }
        }
        double hinge = meanOf(pm, p, (a, b) -> Math.max(1 - a * b, 0));
        double squared = meanOf(pm, p, (a, b) -> Math.pow(Math.max(1 - a * b, 0), 2));
        check(k, "hinge -1/1", Losses.hinge(), pm, p, hinge);
        check(k, "hinge 0/1", Losses.hinge(), zeroOne, p, hinge);
        check(k, "squared_hinge 0/1", Losses.squaredHinge(), zeroOne, p, squared);

        Tensor oneHot = Tensor.zeros(ROWS, COLS);
        for (int r = 0; r < ROWS; r++) {
            oneHot.set(r * COLS + (r % COLS), 1);
        }
        double categorical = 0;
        for (int r = 0; r < ROWS; r++) {
            double pos = p.get(r * COLS + (r % COLS));
            double neg = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < COLS; c++) {
                if (c != r % COLS) {
                    neg = Math.max(neg, p.get(r * COLS + c));
                }
            }
            categorical += Math.max(neg - pos + 1, 0);
        }
        check(k, "categorical_hinge", Losses.categoricalHinge(), oneHot, p, categorical / ROWS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void labelSmoothingMovesTheTargets(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor oneHot = Tensor.zeros(ROWS, COLS);
        for (int r = 0; r < ROWS; r++) {
            oneHot.set(r * COLS + (r % COLS), 1);
        }
        Tensor logits = random(9, -2, 2);
        double expected = 0;
        for (int r = 0; r < ROWS; r++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < COLS; c++) {
                max = Math.max(max, logits.get(r * COLS + c));
            }
            double z = 0;
            for (int c = 0; c < COLS; c++) {
                z += Math.exp(logits.get(r * COLS + c) - max);
            }
            for (int c = 0; c < COLS; c++) {
                double target = oneHot.get(r * COLS + c) * 0.8 + 0.2 / COLS;
                expected -= target * (logits.get(r * COLS + c) - max - Math.log(z));
            }
        }
        check(k, "categorical CE smoothed", Losses.categoricalCrossentropy(true, 0.2f), oneHot, logits,
                expected / ROWS);
        Tensor probs = random(10, 0.05, 0.95);
        double binary = meanOf(oneHot, probs, (a, b) -> {
            double s = a * 0.9 + 0.05;
            return -(s * Math.log(b) + (1 - s) * Math.log(1 - b));
        });
        check(k, "binary CE smoothed", Losses.binaryCrossentropy(false, 0.1f), oneHot, probs, binary);
        assertThrows(IllegalArgumentException.class, () -> Losses.binaryCrossentropy(false, 1.5f));
        assertThrows(IllegalArgumentException.class, () -> Losses.huber(0f));
    }
}
