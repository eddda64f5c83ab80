package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sequence models of the three recurrent layers: a stacked one learns (its loss falls), trains to the same weights
 * eagerly and compiled, and a seeded compiled run repeats bit for bit; {@code returnSequences} and
 * {@code goBackwards} give the outputs Keras gives.
 */
class RecurrentTrainingTest {
    /** SimpleRNN backwards over sequences, LSTM over its sequence, GRU's last state, then logits. */
    static Model stacked() {
        return Sequential.of(
                Layers.input(6, 5),
                Layers.simpleRnn(8, true, true),
                Layers.lstm(12, true, false),
                Layers.gru(8),
                Layers.dense(3));
    }

    private static History train(Model model, boolean eager, Tensor[] xy, int epochs) {
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        model.runEagerly(eager);
        return model.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(16).seed(3).verbose(0));
    }

    @Test
    void aStackedSequenceModelLearns() {
        Tensor[] xy = EagerVsCompiledTest.data(96, 6, 5);
        RandomSeed.set(5);
        History h = train(stacked(), false, xy, 8);
        assertTrue(h.last("loss") < 0.7 * h.get("loss").get(0), h.toString());
    }

    @Test
    void eagerAndCompiledTrainTheSameWeights() {
        Tensor[] xy = EagerVsCompiledTest.data(90, 6, 5);
        RandomSeed.set(13);
        Model eager = stacked();
        train(eager, true, xy, 3);
        RandomSeed.set(13);
        Model compiled = stacked();
        train(compiled, false, xy, 3);
        List<Tensor> a = eager.getWeights();
        List<Tensor> b = compiled.getWeights();
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < a.get(i).size(); k++) {
                float tol = 1e-4f * Math.max(1f, Math.abs(a.get(i).get(k)));
                assertEquals(a.get(i).get(k), b.get(i).get(k), tol, "weight " + i + " element " + k);
            }
        }
        RandomSeed.set(13);
        Model again = stacked();
        train(again, false, xy, 3);
        List<Tensor> c = again.getWeights();
        for (int i = 0; i < b.size(); i++) {
            for (int k = 0; k < b.get(i).size(); k++) {
                assertEquals(Float.floatToIntBits(b.get(i).get(k)), Float.floatToIntBits(c.get(i).get(k)),
                        "seeded compiled runs differ at weight " + i + " element " + k);
            }
        }
    }

    /** The input with its time axis reversed. */
    private static Tensor reversed(Tensor x) {
        int n = x.shape().dim(0);
        int t = x.shape().dim(1);
        int f = x.shape().dim(2);
        Tensor r = Tensor.zeros(x.shape());
        for (int b = 0; b < n; b++) {
            for (int s = 0; s < t; s++) {
                for (int j = 0; j < f; j++) {
                    r.set((b * t + s) * f + j, x.get((b * t + t - 1 - s) * f + j));
                }
            }
        }
        return r;
    }

    private static Model single(Layer layer) {
        RandomSeed.set(21);
        return Sequential.of(Layers.input(5, 4), layer);
    }

    @Test
    void returnSequencesEndsWithTheLastStateAndGoBackwardsReadsTheReversedInput() {
        Tensor x = EagerVsCompiledTest.data(3, 5, 4)[0];
        for (String cell : List.of("simple", "lstm", "gru")) {
            Model last = single(layer(cell, false, false));
            Model all = single(layer(cell, true, false));
            Model back = single(layer(cell, true, true));
            Tensor y = last.predict(x);
            Tensor seq = all.predict(x);
            assertEquals(Shape.of(3, 6), y.shape(), cell);
            assertEquals(Shape.of(3, 5, 6), seq.shape(), cell);
            for (int b = 0; b < 3; b++) {
                for (int j = 0; j < 6; j++) {
                    assertEquals(y.get(b * 6 + j), seq.get((b * 5 + 4) * 6 + j), 0f, cell + ": last step");
                }
            }
            // Going backwards over x is going forwards over x reversed, outputs in the order processed.
            Tensor backwards = back.predict(x);
            Tensor forwardsOnReversed = all.predict(reversed(x));
            for (int i = 0; i < backwards.size(); i++) {
                assertEquals(forwardsOnReversed.get(i), backwards.get(i), 0f, cell + ": backwards element " + i);
            }
        }
    }

    private static Layer layer(String cell, boolean sequences, boolean backwards) {
        return switch (cell) {
            case "simple" -> Layers.simpleRnn(6, sequences, backwards);
            case "lstm" -> Layers.lstm(6, sequences, backwards);
            default -> Layers.gru(6, sequences, backwards);
        };
    }
}
