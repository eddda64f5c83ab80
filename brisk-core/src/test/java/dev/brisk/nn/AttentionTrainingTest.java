package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny transformer block (causal self-attention with dropout, a residual add, layer normalization) trains on
 * synthetic sequences: the loss falls, and eager and compiled training end with the same weights.
 */
class AttentionTrainingTest {
    static final int TIME = 8;
    static final int FEATURES = 12;

    /** Attention, residual add, layer norm, then a classifier over the flattened sequence. */
    static Model transformerBlock(float dropout) {
        SymbolicTensor x = Input.of(TIME, FEATURES);
        SymbolicTensor attended = new MultiHeadAttention(2, 6, 6, dropout, true, true, false, null).apply(x, x);
        SymbolicTensor h = Layers.layerNormalization().apply(Layers.add().apply(x, attended));
        return Model.of(x, Layers.dense(3).apply(Layers.flatten().apply(h)));
    }

    @Test
    void lossFallsOnSyntheticSequences() {
        RandomSeed.set(5);
        Model model = transformerBlock(0f);
        model.compile(Optimizers.adam(3e-3f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = EagerVsCompiledTest.data(256, TIME, FEATURES);
        History h = model.fit(xy[0], xy[1], Fit.epochs(6).batchSize(32).seed(1).verbose(0));
        List<Double> loss = h.get("loss");
        assertTrue(loss.get(loss.size() - 1) < 0.5 * loss.get(0), "loss by epoch: " + loss);
    }

    @Test
    void eagerAndCompiledEndWithTheSameWeights() {
        Tensor[] xy = EagerVsCompiledTest.data(90, TIME, FEATURES);
        List<Tensor> eager = train(true, xy);
        List<Tensor> compiled = train(false, xy);
        assertEquals(eager.size(), compiled.size());
        for (int i = 0; i < eager.size(); i++) {
            Tensor a = eager.get(i);
            Tensor b = compiled.get(i);
            assertEquals(a.shape(), b.shape());
            for (int k = 0; k < a.size(); k++) {
                assertEquals(a.get(k), b.get(k), 1e-4f * Math.max(1f, Math.abs(a.get(k))),
                        "weight " + i + " element " + k);
            }
        }
    }

    private static List<Tensor> train(boolean eager, Tensor[] xy) {
        RandomSeed.set(9);
        Model model = transformerBlock(0.1f);
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        model.runEagerly(eager);
        model.fit(xy[0], xy[1], Fit.epochs(4).batchSize(16).seed(3).verbose(0));
        return model.getWeights();
    }

    @Test
    void weightsHaveKerasNamesAndShapesAndSurviveASaveAndLoad(@TempDir Path tmp) throws Exception {
        RandomSeed.set(3);
        Model model = transformerBlock(0f);
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        List<String> names = new ArrayList<>();
        for (Layer layer : model.layers()) {
            for (Variable v : layer.weights()) {
                names.add(v.name().substring(v.name().indexOf('/') + 1) + v.shape());
            }
        }
        assertTrue(names.containsAll(List.of("query/kernel" + Shape.of(FEATURES, 2, 6), "query/bias" + Shape.of(2, 6),
                "key/kernel" + Shape.of(FEATURES, 2, 6), "value/kernel" + Shape.of(FEATURES, 2, 6),
                "attention_output/kernel" + Shape.of(2, 6, FEATURES), "attention_output/bias" + Shape.of(FEATURES),
                "gamma" + Shape.of(FEATURES), "beta" + Shape.of(FEATURES))), names.toString());
        assertTrue(model.summary().contains("MultiHeadAttention"), model.summary());
        Tensor x = EagerVsCompiledTest.data(4, TIME, FEATURES)[0];
        Tensor before = model.predict(x).copy();
        Path file = tmp.resolve("block.weights");
        model.saveWeights(file);
        RandomSeed.set(4);
        Model other = transformerBlock(0f);
        other.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        other.loadWeights(file);
        Tensor after = other.predict(x);
        for (int i = 0; i < before.size(); i++) {
            assertEquals(before.get(i), after.get(i), "prediction " + i);
        }
    }

    @Test
    void badInputsNameTheLayerAndTheShapes() {
        MultiHeadAttention mha = new MultiHeadAttention(2, 4, 4, 0f, true, false, true, "attn");
        IllegalArgumentException flat = assertThrows(IllegalArgumentException.class,
                () -> mha.apply(Input.of(5), Input.of(5), Input.of(5, 5)));
        assertTrue(flat.getMessage().contains("'attn'") && flat.getMessage().contains("(None, 5)"),
                flat.getMessage());
        IllegalArgumentException mask = assertThrows(IllegalArgumentException.class,
                () -> mha.apply(Input.of(3, 8), Input.of(4, 8), Input.of(4, 3)));
        assertTrue(mask.getMessage().contains("(None, 3, 4)") && mask.getMessage().contains("(None, 4, 3)"),
                mask.getMessage());
        IllegalArgumentException axis = assertThrows(IllegalArgumentException.class,
                () -> new dev.brisk.nn.layers.LayerNormalization(1, 1e-3f, true, true, null));
        assertTrue(axis.getMessage().contains("last axis"), axis.getMessage());
    }
}
