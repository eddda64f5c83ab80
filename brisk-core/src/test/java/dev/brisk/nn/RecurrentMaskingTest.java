package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Recurrent;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Masked steps change neither outputs nor gradients: a padded batch (junk values in the padded steps, masked) gives
 * each sample the outputs and gradients it gets alone and unpadded; the padded steps' input gradients are zero; a
 * sequence output repeats the last real output over the padding, as Keras does.
 */
class RecurrentMaskingTest {
    private static final int STEPS = 5;
    private static final int FEATURES = 3;
    private static final int UNITS = 4;
    private static final int[] LENGTHS = {5, 3, 1, 4};

    private static Tensor random(long seed, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        Tensor t = Tensor.zeros(Shape.of(dims));
        for (int i = 0; i < t.size(); i++) {
            t.set(i, (float) r.nextGaussian());
        }
        return t;
    }

    /** Outputs and the gradients of sum(y * weights) with respect to x and every weight. */
    private record Run(Tensor y, Tensor dx, List<Tensor> dWeights) {
    }

    private static Run run(Recurrent layer, Tensor x, Tensor mask, Tensor weights) {
        Graph g = Graph.eager(Backends.get());
        Node xn = g.input("x", x);
        if (mask != null) {
            g.setMask(xn, g.constant(mask));
        }
        Node y = layer.invoke(g, List.of(xn), new CallContext(true, g.input("seed", Tensor.scalar(1f))));
        List<Node> wrt = new ArrayList<>();
        wrt.add(xn);
        for (Variable v : layer.trainableWeights()) {
            wrt.add(g.variable(v));
        }
        Node f = g.sumAll(g.mul(y, g.constant(weights)));
        List<Node> grads = Autodiff.gradients(g, f, wrt);
        List<Tensor> dw = new ArrayList<>();
        for (int i = 1; i < grads.size(); i++) {
            dw.add(grads.get(i).value().copy());
        }
        return new Run(y.value().copy(), grads.get(0).value().copy(), dw);
    }

    private static Recurrent layer(String cell, boolean sequences, boolean backwards) {
        return switch (cell) {
            case "simple" -> Layers.simpleRnn(UNITS, sequences, backwards);
            case "lstm" -> Layers.lstm(UNITS, sequences, backwards);
            default -> Layers.gru(UNITS, sequences, backwards);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"simple", "lstm", "gru"})
    void paddedStepsChangeNeitherOutputsNorGradients(String cell) {
        for (int variant = 0; variant < 3; variant++) {
            boolean sequences = variant == 1;
            boolean backwards = variant == 2;
            String what = cell + (sequences ? " sequences" : " last") + (backwards ? " backwards" : "");
            RandomSeed.set(7);
            Recurrent layer = layer(cell, sequences, backwards);
            int batch = LENGTHS.length;
            Tensor x = random(1, batch, STEPS, FEATURES); // padded steps hold junk, not zeros
            Tensor mask = Tensor.zeros(Shape.of(batch, STEPS));
            for (int r = 0; r < batch; r++) {
                for (int t = 0; t < LENGTHS[r]; t++) {
                    mask.set(r * STEPS + t, 1f);
                }
            }
            Tensor weights = random(2, sequences ? new int[] {batch, STEPS, UNITS} : new int[] {batch, UNITS});
            if (sequences) {
                // the loss reads the real steps only, as a masked loss does
                for (int r = 0; r < batch; r++) {
                    for (int t = LENGTHS[r]; t < STEPS; t++) {
                        for (int j = 0; j < UNITS; j++) {
                            weights.set((r * STEPS + t) * UNITS + j, 0f);
                        }
                    }
                }
            }
            Run padded = run(layer, x, mask, weights);
            List<Tensor> summed = null;
            for (int r = 0; r < batch; r++) {
                int len = LENGTHS[r];
                Tensor xr = Tensor.zeros(Shape.of(1, len, FEATURES));
                for (int i = 0; i < len * FEATURES; i++) {
                    xr.set(i, x.get(r * STEPS * FEATURES + i));
                }
                Tensor wr = Tensor.zeros(sequences ? Shape.of(1, len, UNITS) : Shape.of(1, UNITS));
                for (int i = 0; i < wr.size(); i++) {
                    wr.set(i, weights.get(r * (sequences ? STEPS : 1) * UNITS + i));
                }
                // A layer is built for one sequence length: a twin with the same weights runs the unpadded sample.
                Recurrent twin = layer(cell, sequences, backwards);
                Graph build = Graph.eager(Backends.get());
                twin.invoke(build, List.of(build.input("x", xr)), new CallContext(false,
                        build.input("seed", Tensor.scalar(1f))));
                for (int i = 0; i < twin.trainableWeights().size(); i++) {
                    twin.trainableWeights().get(i).assign(layer.trainableWeights().get(i).value().copy());
                }
                Run alone = run(twin, xr, null, wr);
                if (sequences) {
                    for (int t = 0; t < STEPS; t++) {
                        int from = Math.min(t, len - 1); // padding repeats the last real output
                        for (int j = 0; j < UNITS; j++) {
                            assertEquals(alone.y().get(from * UNITS + j), padded.y().get((r * STEPS + t) * UNITS + j),
                                    1e-5f, what + ": sample " + r + " step " + t);
                        }
                    }
                } else {
                    for (int j = 0; j < UNITS; j++) {
                        assertEquals(alone.y().get(j), padded.y().get(r * UNITS + j), 1e-5f, what + ": sample " + r);
                    }
                }
                for (int t = 0; t < STEPS; t++) {
                    for (int j = 0; j < FEATURES; j++) {
                        float expected = t < len ? alone.dx().get(t * FEATURES + j) : 0f;
                        float actual = padded.dx().get((r * STEPS + t) * FEATURES + j);
                        if (t < len) {
                            assertEquals(expected, actual, 1e-5f, what + ": dx sample " + r + " step " + t);
                        } else {
                            assertEquals(0f, actual, 0f, what + ": padded step's dx, sample " + r + " step " + t);
                        }
                    }
                }
                if (summed == null) {
                    summed = new ArrayList<>();
                    for (Tensor d : alone.dWeights()) {
                        summed.add(d.copy());
                    }
                } else {
                    for (int i = 0; i < summed.size(); i++) {
                        for (int e = 0; e < summed.get(i).size(); e++) {
                            summed.get(i).set(e, summed.get(i).get(e) + alone.dWeights().get(i).get(e));
                        }
                    }
                }
            }
            for (int i = 0; i < summed.size(); i++) {
                for (int e = 0; e < summed.get(i).size(); e++) {
                    float expected = summed.get(i).get(e);
                    assertEquals(expected, padded.dWeights().get(i).get(e), 1e-4f * Math.max(1f, Math.abs(expected)),
                            what + ": weight " + i + " gradient element " + e);
                }
            }
        }
    }
}
