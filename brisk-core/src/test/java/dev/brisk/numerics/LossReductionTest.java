package dev.brisk.numerics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.losses.Reduction;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keras' loss {@code reduction} options ({@code keras/src/losses/loss.py}, {@code reduce_weighted_values}) on every
 * built-in loss: the values Keras' own tests give ({@code losses_test.py}, {@code loss_test.py}), each reduction
 * against its formula written out here in double over the per-sample losses (each sample's loss taken alone, as a
 * batch of one), with sample weights and with a padding mask, and each gradient against finite differences, eager
 * and compiled, on the vector and scalar kernels.
 */
class LossReductionTest {
    private static final int ROWS = 4;
    private static final int COLS = 3;
    private static final float[] WEIGHTS = {0.5f, 2f, 0f, 1.25f};
    private static final Reduction[] OTHERS = {Reduction.SUM, Reduction.MEAN, Reduction.MEAN_WITH_SAMPLE_WEIGHT,
        Reduction.NONE};

    private static Tensor rowsSummingToOne(Tensor x) {
        int cols = x.shape().dim(-1);
        for (int r = 0; r < x.size() / cols; r++) {
            double s = 0;
            for (int c = 0; c < cols; c++) {
                s += x.get(r * cols + c);
            }
            for (int c = 0; c < cols; c++) {
                x.set(r * cols + c, (float) (x.get(r * cols + c) / s));
            }
        }
        return x;
    }

    private static Tensor oneHot() {
        Tensor t = Tensor.zeros(ROWS, COLS);
        for (int r = 0; r < ROWS; r++) {
            t.set(r * COLS + (r * 2 + 1) % COLS, 1);
        }
        return t;
    }

    private record Case(Loss loss, Tensor yTrue, Tensor yPred) {
    }

    /** Every built-in loss, on targets and predictions in its domain and away from its kinks. */
    private static Case of(String name) {
        Tensor labels = Tensor.of(new float[] {2, 0, 1, 2}, ROWS);
        return switch (name) {
            case "sparse_logits" -> new Case(Losses.sparseCategoricalCrossentropy(true), labels,
                    GradCheck.uniform(1, -2, 2, ROWS, COLS));
            case "sparse_probs" -> new Case(Losses.sparseCategoricalCrossentropy(false), labels,
                    rowsSummingToOne(GradCheck.uniform(2, 0.1, 1, ROWS, COLS)));
            case "categorical" -> new Case(Losses.categoricalCrossentropy(false, 0.1f), oneHot(),
                    rowsSummingToOne(GradCheck.uniform(3, 0.1, 1, ROWS, COLS)));
            case "binary_logits" -> new Case(Losses.binaryCrossentropy(true), GradCheck.uniform(4, 0, 1, ROWS, COLS),
                    GradCheck.uniform(5, -2, 2, ROWS, COLS));
            case "mse" -> new Case(Losses.meanSquaredError(), GradCheck.uniform(6, -1, 1, ROWS, COLS),
                    GradCheck.uniform(7, -1, 1, ROWS, COLS));
            case "mae" -> new Case(Losses.meanAbsoluteError(), GradCheck.uniform(8, -1, 0, ROWS, COLS),
                    GradCheck.uniform(9, 0.1, 1, ROWS, COLS));
            case "huber" -> new Case(Losses.huber(2f), GradCheck.uniform(10, -0.5, 0.5, ROWS, COLS),
                    GradCheck.uniform(11, -0.5, 0.5, ROWS, COLS));
            case "log_cosh" -> new Case(Losses.logCosh(), GradCheck.uniform(12, -1, 1, ROWS, COLS),
                    GradCheck.uniform(13, -1, 1, ROWS, COLS));
            case "kl" -> new Case(Losses.klDivergence(), rowsSummingToOne(GradCheck.uniform(14, 0.1, 1, ROWS, COLS)),
                    rowsSummingToOne(GradCheck.uniform(15, 0.1, 1, ROWS, COLS)));
            case "poisson" -> new Case(Losses.poisson(), GradCheck.uniform(16, 0.1, 3, ROWS, COLS),
                    GradCheck.uniform(17, 0.1, 3, ROWS, COLS));
            case "hinge" -> new Case(Losses.hinge(), oneHot(), GradCheck.uniform(18, 1.2, 2, ROWS, COLS));
            case "squared_hinge" -> new Case(Losses.squaredHinge(), oneHot(), GradCheck.uniform(19, -0.8, 0.8, ROWS, COLS));
            case "categorical_hinge" -> new Case(Losses.categoricalHinge(), oneHot(),
                    GradCheck.uniform(20, -0.4, 0.4, ROWS, COLS));
            case "cosine" -> new Case(Losses.cosineSimilarity(), GradCheck.uniform(21, -1, 1, ROWS, COLS),
                    GradCheck.uniform(22, -1, 1, ROWS, COLS));
            case "mape" -> new Case(Losses.meanAbsolutePercentageError(), GradCheck.uniform(23, 1, 2, ROWS, COLS),
                    GradCheck.uniform(24, -1, 0.5, ROWS, COLS));
            case "msle" -> new Case(Losses.meanSquaredLogarithmicError(), GradCheck.uniform(25, 0.1, 3, ROWS, COLS),
                    GradCheck.uniform(26, 0.1, 3, ROWS, COLS));
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Row {@code r} of {@code t} alone, as a batch of one. */
    private static Tensor row(Tensor t, int r) {
        if (t.shape().rank() == 1) {
            return Tensor.of(new float[] {t.get(r)}, 1);
        }
        float[] v = new float[COLS];
        for (int c = 0; c < COLS; c++) {
            v[c] = t.get(r * COLS + c);
        }
        return Tensor.of(v, 1, COLS);
    }

    /** Each sample's loss, computed alone with the default reduction (the mean of a batch of one). */
    private static double[] perSample(Kernels k, Case c) {
        double[] v = new double[ROWS];
        for (int r = 0; r < ROWS; r++) {
            Graph g = Graph.eager(k);
            v[r] = c.loss().compute(g, g.input("true", row(c.yTrue(), r)), g.input("pred", row(c.yPred(), r)))
                    .value().get(0);
        }
        return v;
    }

    /** Keras' formula for a reduction of per-sample losses {@code v} weighted by {@code w} (null: all ones). */
    private static double[] expected(Reduction r, double[] v, float[] w) {
        double sum = 0;
        double weights = 0;
        double[] each = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            double wi = w == null ? 1 : w[i];
            each[i] = wi * v[i];
            sum += each[i];
            weights += wi;
        }
        return switch (r) {
            case NONE -> each;
            case SUM -> new double[] {sum};
            case SUM_OVER_BATCH_SIZE, MEAN -> new double[] {sum / v.length};
            case MEAN_WITH_SAMPLE_WEIGHT -> new double[] {sum / weights};
        };
    }

    private static Node reduced(Graph g, Loss loss, Node yTrue, Node yPred, boolean weighted) {
        if (!weighted) {
            return loss.compute(g, yTrue, yPred);
        }
        return loss.computeWeighted(g, yTrue, yPred, null, g.input("weights", Tensor.of(WEIGHTS, ROWS)));
    }

    private static void assertClose(double[] expected, Tensor actual, String what) {
        assertEquals(expected.length, actual.size(), what + ": size");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual.get(i), 2e-5 * Math.max(1, Math.abs(expected[i])), what + " [" + i + "]");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sparse_logits", "sparse_probs", "categorical", "binary_logits", "mse", "mae", "huber",
        "log_cosh", "kl", "poisson", "hinge", "squared_hinge", "categorical_hinge", "cosine", "mape", "msle"})
    void everyReductionOfEveryLossMatchesKerasFormulaAndFiniteDifferences(String name) {
        Case c = of(name);
        for (String backend : List.of("default", "scalar")) {
            Kernels k = GradCheck.kernels(backend);
            double[] v = perSample(k, c);
            for (Reduction r : OTHERS) {
                Loss loss = c.loss().withReduction(r);
                assertEquals(r, loss.reduction());
                for (boolean weighted : new boolean[] {false, true}) {
                    String what = name + " " + r.kerasName() + (weighted ? " weighted" : "") + " on " + backend;
                    Graph g = Graph.eager(k);
                    Tensor got = reduced(g, loss, g.input("true", c.yTrue()), g.input("pred", c.yPred()), weighted)
                            .value();
                    assertClose(expected(r, v, weighted ? WEIGHTS : null), got, what);
                    assertEquals(r == Reduction.NONE ? 1 : 0, got.shape().rank(), what + ": rank");
                    Tensor pred = c.yPred().copy();
                    GradCheck.Problem p = (gg, nodes) -> {
                        Node pn = gg.input("pred", pred);
                        nodes.add(pn);
                        return reduced(gg, loss, gg.input("true", c.yTrue()), pn, weighted);
                    };
                    GradCheck.check(k, what, List.of(pred), p, 1e-3, GradCheck.LOSS_ATOL);
                }
            }
        }
    }

    /** Keras' {@code losses_test.py}: y_true [[1, 9, 2], [-5, -2, 6]], y_pred [[4, 8, 12], [8, 1, 3]]. */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void kerasOwnTestValues(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor t = Tensor.of(new float[] {1, 9, 2, -5, -2, 6}, 2, 3);
        Tensor p = Tensor.of(new float[] {4, 8, 12, 8, 1, 3}, 2, 3);
        Tensor w23 = Tensor.of(new float[] {2.3f, 2.3f}, 2);
        Tensor w = Tensor.of(new float[] {1.2f, 3.4f}, 2);
        Loss mse = Losses.meanSquaredError();
        Loss mae = Losses.meanAbsoluteError();
        assertClose(new double[] {84.3333, 143.3666}, weighted(k, mse.withReduction(Reduction.NONE), t, p, w23),
                "mse none");
        assertClose(new double[] {227.69998}, weighted(k, mse.withReduction(Reduction.SUM), t, p, w23), "mse sum");
        assertClose(new double[] {(110 / 3.0 * 1.2 + 187 / 3.0 * 3.4) / (1.2 + 3.4)},
                weighted(k, mse.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), t, p, w), "mse mean_with_sw");
        assertClose(new double[] {10.7333, 14.5666}, weighted(k, mae.withReduction(Reduction.NONE), t, p, w23),
                "mae none");
        assertClose(new double[] {25.29999}, weighted(k, mae.withReduction(Reduction.SUM), t, p, w23), "mae sum");
        assertClose(new double[] {(14 / 3.0 * 1.2 + 19 / 3.0 * 3.4) / (1.2 + 3.4)},
                weighted(k, mae.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), t, p, w), "mae mean_with_sw");

        // HingeTest and CategoricalHingeTest: y_true [[0, 1], [0, 0]], y_pred [[0.6, 0.4], [0.4, 0.6]].
        Tensor ht = Tensor.of(new float[] {0, 1, 0, 0}, 2, 2);
        Tensor hp = Tensor.of(new float[] {0.6f, 0.4f, 0.4f, 0.6f}, 2, 2);
        Tensor oneZero = Tensor.of(new float[] {1, 0}, 2);
        Loss hinge = Losses.hinge();
        assertClose(new double[] {1.3}, weighted(k, hinge, ht, hp, null), "hinge sum_over_batch_size");
        assertClose(new double[] {2.6}, weighted(k, hinge.withReduction(Reduction.SUM), ht, hp, null), "hinge sum");
        assertClose(new double[] {1.1, 1.5}, weighted(k, hinge.withReduction(Reduction.NONE), ht, hp, null),
                "hinge none");
        assertClose(new double[] {0.55}, weighted(k, hinge, ht, hp, oneZero), "hinge weighted");
        assertClose(new double[] {1.1}, weighted(k, hinge.withReduction(Reduction.SUM), ht, hp, oneZero),
                "hinge weighted sum");
        assertClose(new double[] {1.1, 0}, weighted(k, hinge.withReduction(Reduction.NONE), ht, hp, oneZero),
                "hinge weighted none");
        Loss categorical = Losses.categoricalHinge();
        assertClose(new double[] {1.4}, weighted(k, categorical, ht, hp, null), "categorical_hinge");
        assertClose(new double[] {2.8}, weighted(k, categorical.withReduction(Reduction.SUM), ht, hp, null),
                "categorical_hinge sum");
        assertClose(new double[] {1.2, 1.6}, weighted(k, categorical.withReduction(Reduction.NONE), ht, hp, null),
                "categorical_hinge none");
    }

    private static Tensor weighted(Kernels k, Loss loss, Tensor yTrue, Tensor yPred, Tensor weights) {
        Graph g = Graph.eager(k);
        Node t = g.input("true", yTrue);
        Node p = g.input("pred", yPred);
        return (weights == null ? loss.compute(g, t, p)
                : loss.computeWeighted(g, t, p, null, g.input("weights", weights))).value();
    }

    /**
     * Keras' {@code loss_test.py} with a mask: y_true [1, 0, 1, 0], y_pred [0.1, 0.2, 0.3, 0.4], mask
     * [1, 0, 1, 1], weights [0.4, 0.3, 0.2, 0.1], the loss {@code (t - p)^2} (MSE of one column).
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void masksFoldIntoTheWeightsAsInKeras(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor t = Tensor.of(new float[] {1, 0, 1, 0}, 4, 1);
        Tensor p = Tensor.of(new float[] {0.1f, 0.2f, 0.3f, 0.4f}, 4, 1);
        Tensor mask = Tensor.of(new float[] {1, 0, 1, 1}, 4);
        Tensor w = Tensor.of(new float[] {0.4f, 0.3f, 0.2f, 0.1f}, 4);
        double[] e2 = {0.81, 0.04, 0.49, 0.16};
        double maskedWeighted = 0.4 * 0.81 + 0.2 * 0.49 + 0.1 * 0.16;
        Loss mse = Losses.meanSquaredError();
        assertClose(new double[] {(0.81 + 0.49 + 0.16) / 3}, masked(k, mse, t, p, mask, null), "masked");
        assertClose(new double[] {maskedWeighted / 3}, masked(k, mse, t, p, mask, w), "masked weighted");
        assertClose(new double[] {maskedWeighted}, masked(k, mse.withReduction(Reduction.SUM), t, p, mask, w),
                "masked weighted sum");
        assertClose(new double[] {0.81 + 0.49 + 0.16}, masked(k, mse.withReduction(Reduction.SUM), t, p, mask, null),
                "masked sum");
        assertClose(new double[] {maskedWeighted / 0.7},
                masked(k, mse.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), t, p, mask, w),
                "masked mean_with_sample_weight");
        assertClose(new double[] {(0.81 + 0.49 + 0.16) / 3},
                masked(k, mse.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), t, p, mask, null),
                "masked mean_with_sample_weight, no weights");
        assertClose(new double[] {0.4 * e2[0], 0, 0.2 * e2[2], 0.1 * e2[3]},
                masked(k, mse.withReduction(Reduction.NONE), t, p, mask, w), "masked none");
        // Everything masked, or every weight 0: 0, not NaN (Keras' divide_no_nan).
        Tensor none = Tensor.zeros(4);
        for (Reduction r : Reduction.values()) {
            Tensor got = masked(k, mse.withReduction(r), t, p, none, w);
            for (int i = 0; i < got.size(); i++) {
                assertEquals(0f, got.get(i), r + " with everything masked");
            }
        }
        assertClose(new double[] {0}, weighted(k, mse.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), t, p, none),
                "mean_with_sample_weight of zero weights");
    }

    private static Tensor masked(Kernels k, Loss loss, Tensor yTrue, Tensor yPred, Tensor mask, Tensor weights) {
        Graph g = Graph.eager(k);
        Node t = g.input("true", yTrue);
        Node p = g.input("pred", yPred);
        Node m = g.input("mask", mask);
        return (weights == null ? loss.computeMasked(g, t, p, m)
                : loss.computeWeighted(g, t, p, m, g.input("weights", weights))).value();
    }

    /** A sequence of 3 steps per sample: each sample's weight counts once per unmasked step. */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void sequenceStepsShareTheirSamplesWeight(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor t = GradCheck.uniform(30, -1, 1, 2, 3, 2);
        Tensor p = GradCheck.uniform(31, -1, 1, 2, 3, 2);
        float[] mask = {1, 1, 0, 1, 0, 0};
        float[] w = {0.5f, 3f};
        double num = 0;
        double den = 0;
        double sum = 0;
        for (int s = 0; s < 6; s++) {
            double e = 0;
            for (int c = 0; c < 2; c++) {
                double d = p.get(s * 2 + c) - t.get(s * 2 + c);
                e += d * d / 2;
            }
            num += mask[s] * w[s / 3] * e;
            den += mask[s] * w[s / 3];
            sum += w[s / 3] * e;
        }
        Loss mse = Losses.meanSquaredError();
        Tensor wt = Tensor.of(w, 2);
        assertClose(new double[] {num / den}, masked(k, mse.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT), t, p,
                Tensor.of(mask, 2, 3), wt), "masked steps");
        assertClose(new double[] {sum / (3 * 3.5)}, weighted(k, mse.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT),
                t, p, wt), "unmasked steps");
        Tensor pred = p.copy();
        GradCheck.Problem prob = (g, nodes) -> {
            Node pn = g.input("pred", pred);
            nodes.add(pn);
            return mse.withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT).computeWeighted(g, g.input("true", t), pn,
                    g.input("mask", Tensor.of(mask, 2, 3)), g.input("weights", wt));
        };
        GradCheck.check(k, "masked sequence mean_with_sample_weight", List.of(pred), prob, 1e-3,
                GradCheck.LOSS_ATOL);
    }

    @Test
    void theDefaultReductionsGiveTheSameBitsAsBefore() {
        Case c = of("sparse_probs");
        Graph g = Graph.eager(GradCheck.kernels("default"));
        Node t = g.input("true", c.yTrue());
        Node p = g.input("pred", c.yPred());
        float base = c.loss().compute(g, t, p).value().get(0);
        assertEquals(base, c.loss().withReduction(Reduction.MEAN).compute(g, t, p).value().get(0), 0f);
        assertEquals(base, c.loss().withReduction(Reduction.MEAN_WITH_SAMPLE_WEIGHT).compute(g, t, p).value().get(0),
                0f);
        Loss sum = c.loss().withReduction(Reduction.SUM);
        assertSame(sum, sum.withReduction(Reduction.SUM));
        assertEquals(Reduction.SUM_OVER_BATCH_SIZE, sum.withReduction(Reduction.SUM_OVER_BATCH_SIZE).reduction());
    }

    @Test
    void aLossOfOnesOwnIsReducedFromItsPerStepValues() {
        Loss own = new Loss() {
            @Override
            public String name() {
                return "own";
            }

            @Override
            public Node compute(Graph g, Node yTrue, Node yPred) {
                return g.meanAll(perStep(g, yTrue, yPred));
            }

            @Override
            public Node perStep(Graph g, Node yTrue, Node yPred) {
                return g.sum(g.square(g.sub(yPred, yTrue)), false, -1);
            }
        };
        Kernels k = GradCheck.kernels("default");
        Tensor t = GradCheck.uniform(40, -1, 1, ROWS, COLS);
        Tensor p = GradCheck.uniform(41, -1, 1, ROWS, COLS);
        double[] v = new double[ROWS];
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLS; c++) {
                double d = p.get(r * COLS + c) - t.get(r * COLS + c);
                v[r] += d * d;
            }
        }
        Loss sum = own.withReduction(Reduction.SUM);
        assertEquals("own", sum.name());
        assertClose(expected(Reduction.SUM, v, WEIGHTS), weighted(k, sum, t, p, Tensor.of(WEIGHTS, ROWS)), "own sum");
        assertClose(expected(Reduction.SUM, v, null), weighted(k, sum, t, p, null), "own sum unweighted");
        assertClose(expected(Reduction.NONE, v, null), weighted(k, own.withReduction(Reduction.NONE), t, p, null),
                "own none");
        Loss scalarOnly = new Loss() {
            @Override
            public String name() {
                return "scalar_only";
            }

            @Override
            public Node compute(Graph g, Node yTrue, Node yPred) {
                return g.meanAll(g.square(g.sub(yPred, yTrue)));
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> weighted(k, scalarOnly.withReduction(Reduction.SUM), t, p, null));
        assertTrue(e.getMessage().contains("scalar_only") && e.getMessage().contains("sum"), e.getMessage());
    }

    @Test
    void reductionsAreReadByKerasNameAndAnUnknownOneIsRefusedNamingLossAndValue() {
        for (Reduction r : Reduction.values()) {
            assertEquals(r, Reduction.of(r.kerasName(), "mse"));
        }
        assertEquals(Reduction.NONE, Reduction.of(null, "mse"));
        assertEquals(Reduction.SUM_OVER_BATCH_SIZE, Reduction.of("auto", "mse"));
        for (String bad : new String[] {"abc", "SUM", "batch"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Reduction.of(bad, "huber_loss"));
            assertTrue(e.getMessage().contains("huber_loss") && e.getMessage().contains("'" + bad + "'"),
                    e.getMessage());
        }
        assertArrayEquals(new String[] {"sum_over_batch_size", "mean", "sum", "mean_with_sample_weight", "none"},
                java.util.Arrays.stream(Reduction.values()).map(Reduction::kerasName).toArray(String[]::new));
    }
}
