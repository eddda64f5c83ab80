package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.LSTM;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Models that use {@code returnState}, initial states and masks together: an encoder LSTM over masked token
 * embeddings hands its final {@code h} and {@code c} to a decoder LSTM as its initial state (Keras'
 * {@code initial_state=[h, c]}). It learns, trains to the same weights eagerly and compiled, its returned {@code h}
 * is its last output, and bad initial states are refused naming the layer.
 */
class RecurrentStateModelTest {
    private static final int VOCAB = 20;
    private static final int STEPS = 12;

    private record Net(Model model, Model hidden, Model last) {
    }

    private static Net net() {
        SymbolicTensor in = Input.of(DType.INT32, STEPS);
        SymbolicTensor e = Layers.embedding(VOCAB, 8, true).apply(in);
        List<SymbolicTensor> enc = Layers.lstm(6, false, false, true).applyAll(e);
        SymbolicTensor dec = Layers.lstm(6, false, true).apply(e, enc.get(1), enc.get(2));
        SymbolicTensor y = Layers.dense(2).apply(dec);
        return new Net(Model.of(in, y), Model.of(in, enc.get(1)), Model.of(in, enc.get(0)));
    }

    private static History train(Model model, boolean eager, Tensor[] xy, int epochs) {
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        model.runEagerly(eager);
        return model.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(16).seed(3).verbose(0));
    }

    @Test
    void anEncoderHandsItsStatesToADecoderAndTheModelLearns() {
        Tensor[] xy = SequenceModelTest.sequences(128, 5);
        RandomSeed.set(5);
        Net n = net();
        History h = train(n.model(), false, xy, 6);
        assertTrue(h.last("loss") < 0.7 * h.get("loss").get(0), h.toString());
        Tensor hidden = n.hidden().predict(xy[0]);
        Tensor last = n.last().predict(xy[0]);
        assertEquals(Shape.of(128, 6), hidden.shape());
        for (int i = 0; i < hidden.size(); i++) {
            assertEquals(last.get(i), hidden.get(i), 0f, "h is the last output, element " + i);
        }
    }

    @Test
    void eagerAndCompiledTrainTheSameWeights() {
        Tensor[] xy = SequenceModelTest.sequences(64, 9);
        RandomSeed.set(13);
        Model eager = net().model();
        train(eager, true, xy, 2);
        RandomSeed.set(13);
        Model compiled = net().model();
        train(compiled, false, xy, 2);
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
    void badInitialStatesNameTheLayer() {
        SymbolicTensor x = Input.of(5, 3);
        SymbolicTensor h = Input.of(4);
        LSTM lstm = new LSTM(6, false, false, "decoder");
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class, () -> lstm.apply(x, h));
        assertTrue(one.getMessage().contains("decoder") && one.getMessage().contains("2 initial states"),
                one.getMessage());
        LSTM other = new LSTM(6, false, false, "decoder2");
        IllegalArgumentException shape = assertThrows(IllegalArgumentException.class, () -> other.apply(x, h, h));
        assertTrue(shape.getMessage().contains("decoder2") && shape.getMessage().contains("(None, 4)"),
                shape.getMessage());
    }
}
