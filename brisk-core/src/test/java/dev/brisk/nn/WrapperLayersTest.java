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

    /**
     * Keras' merge modes written out on one model's two directions: with {@code NONE} the layer's two outputs are
     * the halves of {@code CONCAT}'s (forward first), and {@code SUM}, {@code MUL} and {@code AVE} are
     * {@code f + b}, {@code f * b} and {@code (f + b) / 2} of them, masked sequences included; both outputs keep
     * the input's mask (a masked global average after each gives the unpadded sequence's average).
     */
    @Test
    void mergeModeNoneGivesBothDirectionsAndTheOtherModesMergeThem() {
        Tensor[] xy = SequenceModelTest.sequences(5, 8);
        Tensor x = xy[0];
        java.util.Map<Bidirectional.MergeMode, Model> models = new java.util.EnumMap<>(Bidirectional.MergeMode.class);
        List<Tensor> weights = null;
        for (Bidirectional.MergeMode mode : Bidirectional.MergeMode.values()) {
            RandomSeed.set(23);
            SymbolicTensor in = Input.of(DType.INT32, STEPS);
            SymbolicTensor e = Layers.embedding(20, 4, true).apply(in);
            List<SymbolicTensor> out = Layers.bidirectional(Layers.gru(3, true, false), mode).applyAll(e);
            Model m = Model.of(List.of(in), out);
            if (weights == null) {
                weights = m.getWeights();
            } else {
                m.setWeights(weights);
            }
            models.put(mode, m);
        }
        Tensor[] none = models.get(Bidirectional.MergeMode.NONE).predict(new Tensor[] {x}, 8);
        assertEquals(2, none.length);
        Tensor f = none[0];
        Tensor b = none[1];
        assertEquals(Shape.of(5, STEPS, 3), f.shape());
        Tensor concat = models.get(Bidirectional.MergeMode.CONCAT).predict(x);
        Tensor sum = models.get(Bidirectional.MergeMode.SUM).predict(x);
        Tensor mul = models.get(Bidirectional.MergeMode.MUL).predict(x);
        Tensor ave = models.get(Bidirectional.MergeMode.AVE).predict(x);
        for (int i = 0; i < f.size(); i++) {
            float fv = f.get(i);
            float bv = b.get(i);
            int row = i / 3;
            int unit = i % 3;
            assertEquals(fv, concat.get(row * 6 + unit), 1e-6f, "concat forward half " + i);
            assertEquals(bv, concat.get(row * 6 + 3 + unit), 1e-6f, "concat backward half " + i);
            assertEquals(fv + bv, sum.get(i), 1e-6f, "sum " + i);
            assertEquals(fv * bv, mul.get(i), 1e-6f, "mul " + i);
            assertEquals((fv + bv) / 2, ave.get(i), 1e-6f, "ave " + i);
        }
        // The backward direction is not the forward one: NONE really returns two different outputs.
        boolean differ = false;
        for (int i = 0; i < f.size(); i++) {
            differ |= Math.abs(f.get(i) - b.get(i)) > 1e-4f;
        }
        assertTrue(differ, "forward and backward outputs differ");
        // Both outputs carry the mask: Keras' zero_output_for_mask zeros every padded step of each.
        for (int r = 0; r < 5; r++) {
            for (int t = 0; t < STEPS; t++) {
                if (x.intAt(r * STEPS + t) == 0) {
                    for (int u = 0; u < 3; u++) {
                        int i = (r * STEPS + t) * 3 + u;
                        assertEquals(0f, f.get(i), "forward output at padded step " + t + " of row " + r);
                        assertEquals(0f, b.get(i), "backward output at padded step " + t + " of row " + r);
                    }
                }
            }
        }
    }

    @Test
    void mergeModeNoneInASequentialModelIsRefusedNamingApplyAll() {
        Model m = Sequential.of(Layers.input(4, 2),
                Layers.bidirectional(Layers.lstm(3), Bidirectional.MergeMode.NONE),
                Layers.dense(2));
        String msg = assertThrows(IllegalArgumentException.class, () -> m.predict(Tensor.zeros(Shape.of(1, 4, 2))))
                .getMessage();
        assertTrue(msg.contains("merge mode NONE has two outputs") && msg.contains("applyAll"), msg);
    }
}
