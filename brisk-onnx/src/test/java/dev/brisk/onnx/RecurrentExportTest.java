package dev.brisk.onnx;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Recurrent layers with Embedding's mask (padding at the start, at the end, in the middle, and a row of padding
 * only), initial states and returned states, exported and run in ONNX Runtime against {@code predict}.
 */
class RecurrentExportTest {
    private static final int STEPS = 9;
    private static final int VOCAB = 30;

    /** Rows padded at the start, at the end, in the middle, not at all, and everywhere. */
    private static Tensor paddedIds() {
        Random r = new Random(3);
        int rows = 5;
        int[] ids = new int[rows * STEPS];
        for (int i = 0; i < ids.length; i++) {
            int row = i / STEPS;
            int s = i % STEPS;
            boolean pad = switch (row) {
                case 0 -> s < 4;          // Keras' pad_sequences default: padding first
                case 1 -> s >= 6;         // padding last
                case 2 -> s == 3 || s == 4;
                case 3 -> false;
                default -> true;          // no real step at all
            };
            ids[i] = pad ? 0 : 1 + r.nextInt(VOCAB - 1);
        }
        return Tensor.ofInts(ids, rows, STEPS);
    }

    @Test
    void maskedSequencesKeepTheirStateAcrossPadding() throws Exception {
        Tensor ids = paddedIds();
        for (int variant = 0; variant < 3; variant++) {
            SymbolicTensor in = Input.of(DType.INT32, STEPS);
            SymbolicTensor e = Layers.embedding(VOCAB, 6, true).apply(in);
            SymbolicTensor y = switch (variant) {
                case 0 -> Layers.lstm(5, true, false).apply(e);
                case 1 -> Layers.gru(5, true, true).apply(e);
                default -> Layers.simpleRnn(5, true, false).apply(e);
            };
            SymbolicTensor last = switch (variant) {
                case 0 -> Layers.gru(4, false, true).apply(y);
                case 1 -> Layers.simpleRnn(4).apply(y);
                default -> Layers.lstm(4, false, true).apply(y);
            };
            Model model = Model.of(List.of(in), List.of(y, Layers.dense(3).apply(last)));
            OnnxRuntimeCheck.assertSamePredictions(model, ids);
        }
    }

    @Test
    void bidirectionalAndTimeDistributedOverAMask() throws Exception {
        SymbolicTensor in = Input.of(DType.INT32, STEPS);
        SymbolicTensor e = Layers.embedding(VOCAB, 6, true).apply(in);
        SymbolicTensor y = Layers.bidirectional(Layers.lstm(4, true, false)).apply(e);
        y = Layers.timeDistributed(Layers.dense(3, Activation.TANH)).apply(y);
        SymbolicTensor last = Layers.bidirectional(Layers.gru(4)).apply(y);
        Model model = Model.of(in, Layers.dense(2).apply(last));
        OnnxRuntimeCheck.assertSamePredictions(model, paddedIds());
    }

    @Test
    void returnedStatesFeedAnotherLayersInitialState() throws Exception {
        Tensor ids = paddedIds();
        for (boolean masked : new boolean[] {false, true}) {
            SymbolicTensor in = Input.of(DType.INT32, STEPS);
            SymbolicTensor e = Layers.embedding(VOCAB, 6, masked).apply(in);
            List<SymbolicTensor> lstm = Layers.lstm(5, true, false, true).applyAll(e);
            SymbolicTensor decoded = Layers.lstm(5, false, true).apply(lstm.get(0), lstm.get(1), lstm.get(2));
            List<SymbolicTensor> gru = Layers.gru(5, false, false, true).applyAll(e);
            SymbolicTensor rnn = Layers.simpleRnn(5, true, true).apply(e, gru.get(1));
            Model model = Model.of(List.of(in), List.of(Layers.dense(2).apply(decoded), lstm.get(2), gru.get(0),
                    rnn));
            OnnxRuntimeCheck.assertSamePredictions(model, ids);
        }
    }
}
