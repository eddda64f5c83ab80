package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A functional model built from the activation, merge and reshaping layers of Keras parity (padding, upsampling,
 * PReLU, ELU, a two-branch Multiply/Subtract/Maximum, Permute, RepeatVector) trains in compiled and eager mode to the
 * same losses, including a last partial batch, and learns a separable task.
 */
class ParityLayersFitTest {
    private static Model build() {
        RandomSeed.set(21);
        SymbolicTensor in = Input.of(6, 6, 1);
        SymbolicTensor x = Layers.zeroPadding2d(1).apply(in);
        x = Layers.conv2d(4, 3, 2, Padding.VALID, Activation.LINEAR).apply(x);
        x = Layers.prelu(1, 2).apply(x);
        x = Layers.upSampling2d(2).apply(x);
        x = Layers.conv2d(4, 3, 2, Padding.SAME, Activation.SELU).apply(x);
        SymbolicTensor flat = Layers.flatten().apply(x);
        SymbolicTensor a = Layers.dense(8, Activation.MISH).apply(flat);
        SymbolicTensor b = Layers.dense(8, Activation.SILU).apply(flat);
        SymbolicTensor merged = Layers.maximum().apply(Layers.multiply().apply(a, b), Layers.subtract().apply(a, b));
        SymbolicTensor seq = Layers.permute(2, 1).apply(Layers.repeatVector(2).apply(Layers.elu(1f).apply(merged)));
        SymbolicTensor out = Layers.dense(2).apply(Layers.flatten().apply(seq));
        Model m = Model.of(in, out);
        m.compile(Optimizers.adam(0.01f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    private static Tensor[] data() {
        Random r = new Random(4);
        int n = 90;
        float[] x = new float[n * 36];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            int label = i % 2;
            y[i] = label;
            for (int p = 0; p < 36; p++) {
                boolean left = p % 6 < 3;
                x[i * 36 + p] = (float) ((left == (label == 1) ? 1.0 : 0.0) + 0.3 * r.nextGaussian());
            }
        }
        return new Tensor[] {Tensor.of(x, n, 6, 6, 1), Tensor.of(y, n, 1)};
    }

    @Test
    void compiledAndEagerTrainAlikeAndLearn() {
        Tensor[] d = data();
        Model compiled = build();
        History hc = compiled.fit(d[0], d[1], Fit.epochs(6).batchSize(32).shuffle(false).verbose(0));
        Model eager = build().runEagerly(true);
        History he = eager.fit(d[0], d[1], Fit.epochs(6).batchSize(32).shuffle(false).verbose(0));
        List<Double> lc = hc.get("loss");
        List<Double> le = he.get("loss");
        for (int i = 0; i < lc.size(); i++) {
            assertEquals(le.get(i), lc.get(i), 1e-4 * Math.abs(le.get(i)), "epoch " + i + ": " + lc + " vs " + le);
        }
        assertTrue(hc.last("accuracy") > 0.9, hc.toString());
    }
}
