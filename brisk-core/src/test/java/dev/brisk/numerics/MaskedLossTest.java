package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.uniform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A loss over a masked sequence output ({@link Loss#computeMasked}): its value is the mean of the loss of each
 * unmasked step taken alone (computed here one step at a time with {@link Loss#compute}, independent of the masking
 * code), masked steps get exactly zero gradient, and the gradient agrees with finite differences, eager and compiled.
 */
class MaskedLossTest {
    private static final int BATCH = 2;
    private static final int STEPS = 3;
    private static final int CLASSES = 4;
    /** Step 2 of sample 0 and steps 1, 2 of sample 1 are padding. */
    private static final float[] MASK = {1, 1, 0, 1, 0, 0};

    /** A probability row per step (softmax of uniform scores), for the losses that read probabilities. */
    private static Tensor probabilities(long seed) {
        Tensor t = uniform(seed, -2, 2, BATCH, STEPS, CLASSES);
        for (int row = 0; row < BATCH * STEPS; row++) {
            double sum = 0;
            for (int c = 0; c < CLASSES; c++) {
                sum += Math.exp(t.get(row * CLASSES + c));
            }
            for (int c = 0; c < CLASSES; c++) {
                t.set(row * CLASSES + c, (float) (Math.exp(t.get(row * CLASSES + c)) / sum));
            }
        }
        return t;
    }

    private record Case(Loss loss, Tensor yTrue, Tensor yPred) {
    }

    private static Case of(String name) {
        Tensor labels = Tensor.of(new float[] {1, 3, 0, 2, 1, 1}, BATCH, STEPS);
        Tensor oneHot = Tensor.zeros(Shape.of(BATCH, STEPS, CLASSES));
        for (int i = 0; i < BATCH * STEPS; i++) {
            oneHot.set(i * CLASSES + (int) labels.get(i), 1f);
        }
        return switch (name) {
            case "sparse_logits" -> new Case(Losses.sparseCategoricalCrossentropy(true), labels,
                    uniform(1, -2, 2, BATCH, STEPS, CLASSES));
            case "sparse_probs" -> new Case(Losses.sparseCategoricalCrossentropy(false), labels, probabilities(2));
            case "categorical" -> new Case(Losses.categoricalCrossentropy(false), oneHot, probabilities(3));
            case "binary_logits" -> new Case(Losses.binaryCrossentropy(true), uniform(4, 0, 1, BATCH, STEPS, 1),
                    uniform(5, -2, 2, BATCH, STEPS, 1));
            case "mse" -> new Case(Losses.meanSquaredError(), uniform(6, -1, 1, BATCH, STEPS, CLASSES),
                    uniform(7, -1, 1, BATCH, STEPS, CLASSES));
            case "huber" -> new Case(Losses.huber(0.5f), uniform(8, -1, 1, BATCH, STEPS, CLASSES),
                    uniform(9, -1, 1, BATCH, STEPS, CLASSES));
            case "kl" -> new Case(Losses.klDivergence(), probabilities(10), probabilities(11));
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Step {@code row} of {@code t} alone, as a batch of one step. */
    private static Tensor step(Tensor t, int row) {
        int width = t.size() / (BATCH * STEPS);
        Tensor out = Tensor.zeros(width == 1 && t.shape().rank() == 2 ? Shape.of(1) : Shape.of(1, width));
        for (int i = 0; i < width; i++) {
            out.set(i, t.get(row * width + i));
        }
        return out;
    }

    private static Node masked(Graph g, Case c, Node pred) {
        return c.loss().computeMasked(g, g.input("true", c.yTrue()), pred,
                g.input("mask", Tensor.of(MASK, BATCH, STEPS)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sparse_logits", "sparse_probs", "categorical", "binary_logits", "mse", "huber", "kl"})
    void theMaskedLossIsTheMeanOfTheRealStepsLosses(String name) {
        Case c = of(name);
        for (String backend : List.of("default", "scalar")) {
            Kernels k = GradCheck.kernels(backend);
            double sum = 0;
            int kept = 0;
            for (int row = 0; row < BATCH * STEPS; row++) {
                if (MASK[row] == 1) {
                    Graph g = Graph.eager(k);
                    sum += c.loss().compute(g, g.input("true", step(c.yTrue(), row)),
                            g.input("pred", step(c.yPred(), row))).value().get(0);
                    kept++;
                }
            }
            Graph g = Graph.eager(k);
            Node pred = g.input("pred", c.yPred());
            Node loss = masked(g, c, pred);
            assertEquals(sum / kept, loss.value().get(0), 1e-5, name + " on " + backend);
            // The padded steps' predictions get no gradient at all.
            Tensor grad = Autodiff.gradients(g, loss, List.of(pred)).get(0).value();
            int width = grad.size() / (BATCH * STEPS);
            double realGradient = 0;
            for (int i = 0; i < grad.size(); i++) {
                if (MASK[i / width] == 0) {
                    assertEquals(0f, Math.abs(grad.get(i)), name + ": gradient at padded element " + i);
                } else {
                    realGradient += Math.abs(grad.get(i));
                }
            }
            assertTrue(realGradient > 1e-3, name + ": the real steps have a gradient");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sparse_logits", "sparse_probs", "categorical", "binary_logits", "mse", "huber", "kl"})
    void theMaskedLossGradientMatchesFiniteDifferences(String name) {
        Case c = of(name);
        for (String backend : List.of("default", "scalar")) {
            Tensor pred = c.yPred().copy();
            GradCheck.Problem p = (g, nodes) -> {
                Node pn = g.input("pred", pred);
                nodes.add(pn);
                return masked(g, c, pn);
            };
            GradCheck.check(GradCheck.kernels(backend), "masked " + name, List.of(pred), p, 1e-3,
                    GradCheck.LOSS_ATOL);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default"})
    void aMaskThatDoesNotFitTheStepsIsRefusedByName(String backend) {
        Case c = of("mse");
        Graph g = Graph.eager(GradCheck.kernels(backend));
        Node pred = g.input("pred", c.yPred());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.loss().computeMasked(
                g, g.input("true", c.yTrue()), pred, g.input("mask", Tensor.zeros(Shape.of(BATCH, STEPS + 1)))));
        assertTrue(e.getMessage().contains("mean_squared_error") && e.getMessage().contains("(2, 4)"),
                e.getMessage());
    }
}
