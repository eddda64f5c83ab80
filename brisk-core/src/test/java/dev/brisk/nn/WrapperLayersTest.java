package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Bidirectional;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.TimeDistributed;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code Bidirectional} and {@code TimeDistributed} in models: Keras' weight names and counts, a masked stack of
 * both that learns and trains to the same weights eagerly and compiled, TimeDistributed(Dense) equal to Dense over
 * the last axis, the backward direction equal to a goBackwards layer read back in time order, and bad inputs named.
 */
class WrapperLayersTest {
    private static final int STEPS = 12;

    static Model stack() {
        return Sequential.of(
                Layers.input(DType.INT32, STEPS),
                Layers.embedding(20, 8, true),
                Layers.bidirectional(Layers.lstm(6, true, false)),
                Layers.timeDistributed(Layers.dense(5, Activation.TANH)),
                Layers.bidirectional(Layers.gru(4), Bidirectional.MergeMode.SUM),
                Layers.dense(2));
    }

    private static History train(Model model, boolean eager, Tensor[] xy, int epochs) {
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        model.runEagerly(eager);
        return model.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(16).seed(3).verbose(0));
    }

    @Test
    void weightsHaveKerasNamesAndCounts() {
        RandomSeed.set(3);
        Bidirectional bi = Layers.bidirectional(Layers.lstm(6, true, false));
        Model m = Sequential.of(Layers.input(5, 3), bi);
        List<String> names = m.trainableVariables().stream().map(Variable::name).toList();
        String inner = bi.forwardLayer().name().substring("forward_".length());
        assertEquals(List.of("forward_" + inner + "/kernel", "forward_" + inner + "/recurrent_kernel",
                "forward_" + inner + "/bias", "backward_" + inner + "/kernel", "backward_" + inner
                        + "/recurrent_kernel", "backward_" + inner + "/bias"), names);
        assertEquals(2 * (3 * 24 + 6 * 24 + 24), bi.parameterCount());
        assertTrue(m.summary().contains("(None, 5, 12)"), m.summary());
        assertTrue(bi.backwardLayer().goBackwards() && !bi.forwardLayer().goBackwards());
    }

    @Test
    void aMaskedStackLearnsAndTrainsTheSameEagerAndCompiled() {
        Tensor[] xy = SequenceModelTest.sequences(96, 4);
        RandomSeed.set(17);
        History h = train(stack(), false, xy, 6);
        assertTrue(h.last("loss") < 0.7 * h.get("loss").get(0), h.toString());
        Tensor[] small = SequenceModelTest.sequences(48, 6);
        RandomSeed.set(19);
        Model eager = stack();
        train(eager, true, small, 2);
        RandomSeed.set(19);
        Model compiled = stack();
        train(compiled, false, small, 2);
        List<Tensor> a = eager.getWeights();
        List<Tensor> b = compiled.getWeights();
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < a.get(i).size(); k++) {
                float tol = 1e-4f * Math.max(1f, Math.abs(a.get(i).get(k)));
                assertEquals(a.get(i).get(k), b.get(i).get(k), tol, "weight " + i + " element " + k);
            }
        }
    }

    @Test
    void timeDistributedDenseIsDenseOverTheLastAxis() {
        Tensor x = EagerVsCompiledTest.data(4, 5, 3)[0];
        RandomSeed.set(23);
        Dense dense = Layers.dense(4, Activation.RELU);
        Model plain = Sequential.of(Layers.input(5, 3), dense);
        TimeDistributed td = Layers.timeDistributed(Layers.dense(4, Activation.RELU));
        Model wrapped = Sequential.of(Layers.input(5, 3), td);
        wrapped.setWeights(plain.getWeights());
        Tensor expected = plain.predict(x);
        Tensor actual = wrapped.predict(x);
        assertEquals(Shape.of(4, 5, 4), actual.shape());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), 0f, "element " + i);
        }
    }

    @Test
    void theBackwardDirectionIsAGoBackwardsLayerInTimeOrder() {
        Tensor x = EagerVsCompiledTest.data(3, 5, 4)[0];
        RandomSeed.set(29);
        Bidirectional bi = Layers.bidirectional(Layers.gru(3, true, false));
        Model both = Sequential.of(Layers.input(5, 4), bi);
        Model back = Sequential.of(Layers.input(5, 4), Layers.gru(3, true, true));
        Model fwd = Sequential.of(Layers.input(5, 4), Layers.gru(3, true, false));
        List<Tensor> w = both.getWeights();
        fwd.setWeights(w.subList(0, 3));
        back.setWeights(w.subList(3, 6));
        Tensor y = both.predict(x);
        Tensor f = fwd.predict(x);
        Tensor b = back.predict(x);
        for (int r = 0; r < 3; r++) {
            for (int t = 0; t < 5; t++) {
                for (int j = 0; j < 3; j++) {
                    assertEquals(f.get((r * 5 + t) * 3 + j), y.get((r * 5 + t) * 6 + j), 0f, "forward");
                    // go_backwards outputs in processing order: time t is its step 4 - t
                    assertEquals(b.get((r * 5 + 4 - t) * 3 + j), y.get((r * 5 + t) * 6 + 3 + j), 0f, "backward");
                }
            }
        }
    }

    @Test
    void badInputsNameTheLayer() {
        Bidirectional bi = new Bidirectional(Layers.lstm(4), Bidirectional.MergeMode.CONCAT, "bi");
        IllegalArgumentException states = assertThrows(IllegalArgumentException.class,
                () -> bi.apply(Input.of(5, 3), Input.of(4)));
        assertTrue(states.getMessage().contains("'bi'") && states.getMessage().contains("4 initial states"),
                states.getMessage());
        TimeDistributed td = new TimeDistributed(Layers.dense(2), "td");
        IllegalArgumentException rank = assertThrows(IllegalArgumentException.class, () -> td.apply(Input.of(5)));
        assertTrue(rank.getMessage().contains("'td'") && rank.getMessage().contains("(None, 5)"),
                rank.getMessage());
    }
}
