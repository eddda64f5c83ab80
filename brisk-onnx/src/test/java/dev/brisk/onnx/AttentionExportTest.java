package dev.brisk.onnx;

import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * MultiHeadAttention's fused ATTENTION node with an additive mask (Embedding's padding mask as the query's rows and
 * the keys' columns), causal and not, exported and run in ONNX Runtime against {@code predict}. A row of padding
 * at the end of a sequence is hidden throughout and gets Keras' uniform probabilities on both sides.
 */
class AttentionExportTest {
    @Test
    void paddedSequencesThroughCausalAndFullAttention() throws Exception {
        int steps = 10;
        int[] ids = new int[6 * steps];
        Random r = new Random(11);
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i % steps >= steps - 1 - (i / steps) ? 0 : 1 + r.nextInt(29); // padded ends of varying length
        }
        Tensor tokens = Tensor.ofInts(ids, 6, steps);
        for (boolean causal : new boolean[] {false, true}) {
            SymbolicTensor in = Input.of(DType.INT32, steps);
            SymbolicTensor h = Layers.embedding(30, 8, true).apply(in);
            SymbolicTensor attended = new MultiHeadAttention(2, 4, 3, 0f, true, causal, false, null).apply(h, h);
            Model model = Model.of(in, Layers.dense(3).apply(Layers.globalAveragePooling1d().apply(attended)));
            OnnxRuntimeCheck.assertSamePredictions(model, tokens);
        }
    }
}
