package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The elementwise merge layers broadcast their inputs' shapes as Keras' do: a size-1 axis takes the other input's
 * size, a lower-rank input is aligned after the batch axis, and an open size against a fixed one gives an open size.
 * The common attention-pooling pattern, features times per-step weights of shape (steps, 1), trains alike compiled
 * and eager.
 */
class MergeBroadcastTest {
    @Test
    void outputShapesFollowKerasRule() {
        assertEquals(Shape.of(10, 8), Layers.add().apply(Input.of(10, 8), Input.of(1, 8)).shape());
        assertEquals(Shape.of(10, 8), Layers.multiply().apply(Input.of(10, 1), Input.of(10, 8)).shape());
        assertEquals(Shape.of(10, 8), Layers.subtract().apply(Input.of(10, 8), Input.of(8)).shape());
        assertEquals(Shape.of(10, 8), Layers.maximum().apply(Input.of(8), Input.of(10, 8), Input.of(1, 1)).shape());
        // Keras: None against a fixed size is None (each batch's sizes are checked when it is traced).
        assertEquals(Shape.of(Shape.OPEN, 8),
                Layers.add().apply(Input.of(Shape.OPEN, 8), Input.of(10, 8)).shape());
        assertThrows(IllegalArgumentException.class, () -> Layers.average().apply(Input.of(3, 8), Input.of(4, 8)));
    }

    @Test
    void aBroadcastMergeComputesWhatNumpyWould() {
        SymbolicTensor a = Input.of(3, 2);
        SymbolicTensor b = Input.of(2);
        Model m = Model.of(List.of(a, b), List.of(Layers.multiply().apply(a, b)));
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 2, 3, 2);
        Tensor w = Tensor.of(new float[] {10, 100, -1, 0.5f}, 2, 2);
        float[] got = m.predict(new Tensor[] {x, w}, 2)[0].toArray();
        assertArrayEquals(new float[] {10, 200, 30, 400, 50, 600, -7, 4, -9, 5, -11, 6}, got);
    }

    private static Model attentionPooling() {
        RandomSeed.set(5);
        SymbolicTensor in = Input.of(6, 4);
        SymbolicTensor h = Layers.dense(8, Activation.TANH).apply(in);
        SymbolicTensor weights = Layers.dense(1, Activation.SIGMOID).apply(h);
        SymbolicTensor pooled = Layers.globalAveragePooling1d().apply(Layers.multiply().apply(h, weights));
        SymbolicTensor shifted = Layers.add().apply(pooled, Layers.dense(1).apply(pooled));
        Model m = Model.of(in, Layers.dense(2).apply(shifted));
        m.compile(Optimizers.adam(0.02f), Losses.sparseCategoricalCrossentropy(true));
        return m;
    }

    @Test
    void attentionPoolingTrainsAlikeCompiledAndEager() {
        Random r = new Random(9);
        int n = 64;
        float[] x = new float[n * 24];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            for (int j = 0; j < 24; j++) {
                x[i * 24 + j] = (float) (r.nextGaussian() + (j % 4 == 0 ? 2 * y[i] - 1 : 0));
            }
        }
        Tensor tx = Tensor.of(x, n, 6, 4);
        Tensor ty = Tensor.of(y, n, 1);
        History compiled = attentionPooling().fit(tx, ty, Fit.epochs(5).batchSize(16).shuffle(false).verbose(0));
        History eager = attentionPooling().runEagerly(true)
                .fit(tx, ty, Fit.epochs(5).batchSize(16).shuffle(false).verbose(0));
        List<Double> lc = compiled.get("loss");
        List<Double> le = eager.get("loss");
        for (int i = 0; i < lc.size(); i++) {
            assertEquals(le.get(i), lc.get(i), 1e-4 * Math.abs(le.get(i)), "epoch " + i + ": " + lc + " vs " + le);
        }
        assertTrue(lc.get(lc.size() - 1) < lc.get(0), "loss falls: " + lc);
    }

    @Test
    void anOpenSizeMeetsAFixedOneWhenTraced() {
        SymbolicTensor tokens = Input.of(DType.INT32, Shape.OPEN);
        SymbolicTensor e = Layers.embedding(10, 4).apply(tokens);
        SymbolicTensor fixed = Input.of(5, 4);
        Model m = Model.of(List.of(tokens, fixed), List.of(Layers.add().apply(e, fixed)));
        Tensor five = Tensor.ofInts(new int[] {1, 2, 3, 4, 5}, 1, 5);
        Tensor bias = Tensor.of(new float[20], 1, 5, 4);
        assertEquals(Shape.of(1, 5, 4), m.predict(new Tensor[] {five, bias}, 1)[0].shape());
        Tensor three = Tensor.ofInts(new int[] {1, 2, 3}, 1, 3);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> m.predict(new Tensor[] {three, bias}, 1));
        assertTrue(bad.getMessage().contains("3") && bad.getMessage().contains("5"), bad.getMessage());
    }
}
