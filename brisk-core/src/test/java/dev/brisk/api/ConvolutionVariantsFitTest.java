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
 * A functional model of the convolution variants and image layers of issue 28 (dilated Conv2D, DepthwiseConv2D,
 * SeparableConv2D, Conv2DTranspose, Cropping2D, SpatialDropout2D, BatchNormalization without offset on axis 1,
 * GlobalMaxPooling2D, GaussianNoise, Dot, Lambda) trains in compiled and eager mode to the same losses, a last partial
 * batch included, and learns a separable task.
 */
public class ConvolutionVariantsFitTest {
    /**
     * The model, seeded, compiled with Adam and the sparse cross-entropy from logits (the allocation test steps it).
     *
     * @return the model
     */
    public static Model build() {
        RandomSeed.set(22);
        SymbolicTensor in = Input.of(8, 8, 2);
        SymbolicTensor x = Layers.conv2d(4, 3, Padding.SAME, 2, Activation.RELU).apply(in);
        x = Layers.depthwiseConv2d(3, 2, Padding.SAME, 2, Activation.TANH).apply(x);
        x = Layers.separableConv2d(6, 3, 1, Padding.SAME, Activation.RELU).apply(x);
        x = Layers.spatialDropout2d(0.2f).apply(x);
        x = Layers.conv2dTranspose(4, 3, 2, Padding.SAME, Activation.LINEAR).apply(x);
        x = Layers.cropping2d(1, 1, 1, 1).apply(x);
        x = Layers.batchNormalization(1, false, true).apply(x);
        SymbolicTensor pooled = Layers.gaussianNoise(0.1f).apply(Layers.globalMaxPooling2d().apply(x));
        SymbolicTensor a = Layers.dense(4, Activation.TANH).apply(pooled);
        SymbolicTensor b = Layers.dense(4, Activation.TANH).apply(pooled);
        SymbolicTensor cos = Layers.dot(1, 1, true).apply(a, b);
        SymbolicTensor both = Layers.concatenate().apply(pooled, Layers.lambda((g, t) -> g.scale(t, 2f)).apply(cos));
        SymbolicTensor out = Layers.dense(2).apply(both);
        Model m = Model.of(in, out);
        m.compile(Optimizers.adam(0.01f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    /**
     * 90 two-channel 8x8 images whose label says which half is bright, and the labels.
     *
     * @return the images and the labels
     */
    public static Tensor[] data() {
        Random r = new Random(5);
        int n = 90;
        float[] x = new float[n * 128];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            int label = i % 2;
            y[i] = label;
            for (int p = 0; p < 128; p++) {
                boolean top = p / 16 < 4;
                x[i * 128 + p] = (float) ((top == (label == 1) ? 1.0 : 0.0) + 0.3 * r.nextGaussian());
            }
        }
        return new Tensor[] {Tensor.of(x, n, 8, 8, 2), Tensor.of(y, n, 1)};
    }

    @Test
    void compiledAndEagerTrainAlikeAndLearn() {
        Tensor[] d = data();
        Model compiled = build();
        History hc = compiled.fit(d[0], d[1], Fit.epochs(8).batchSize(32).shuffle(false).verbose(0));
        Model eager = build().runEagerly(true);
        History he = eager.fit(d[0], d[1], Fit.epochs(8).batchSize(32).shuffle(false).verbose(0));
        List<Double> lc = hc.get("loss");
        List<Double> le = he.get("loss");
        for (int i = 0; i < lc.size(); i++) {
            assertEquals(le.get(i), lc.get(i), 1e-4 * Math.abs(le.get(i)), "epoch " + i + ": " + lc + " vs " + le);
        }
        assertTrue(hc.last("accuracy") > 0.9, hc.toString());
    }
}
