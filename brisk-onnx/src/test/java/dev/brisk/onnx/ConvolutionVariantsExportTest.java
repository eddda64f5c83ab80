package dev.brisk.onnx;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The convolution variants and image layers of issue 28, exported and run in ONNX Runtime against {@code predict}:
 * dilated Conv2D, DepthwiseConv2D and SeparableConv2D (through the ops they are made of), Conv2DTranspose (ONNX's
 * ConvTranspose, with a kernel smaller than the stride for its output padding), Cropping2D, SpatialDropout2D and
 * GaussianNoise (off in inference), BatchNormalization on axis 1 without offset, GlobalMaxPooling2D, Dot and a Lambda
 * layer.
 */
class ConvolutionVariantsExportTest {
    private static Tensor images(int n, int h, int w, int c) {
        SplittableRandom rnd = new SplittableRandom(8);
        float[] v = new float[n * h * w * c];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) rnd.nextGaussian();
        }
        return Tensor.of(v, n, h, w, c);
    }

    @Test
    void convolutionVariantsExport() throws Exception {
        RandomSeed.set(41);
        SymbolicTensor in = Input.of(9, 8, 2);
        SymbolicTensor x = Layers.conv2d(4, 3, Padding.SAME, 2, Activation.RELU).apply(in);
        x = Layers.conv2d(3, 2, Padding.VALID, 3, Activation.LINEAR).apply(x);
        x = Layers.depthwiseConv2d(3, 2, Padding.SAME, 2, Activation.TANH).apply(x);
        x = Layers.separableConv2d(5, 3, 1, Padding.SAME, Activation.RELU).apply(x);
        x = Layers.spatialDropout2d(0.3f).apply(x);
        x = Layers.conv2dTranspose(4, 3, 2, Padding.SAME, Activation.LINEAR).apply(x);
        x = Layers.conv2dTranspose(3, 2, 3, Padding.VALID, Activation.SIGMOID).apply(x);
        x = Layers.conv2dTranspose(2, 3, 1, Padding.VALID, Activation.LINEAR).apply(x);
        x = Layers.cropping2d(1, 2, 2, 0).apply(x);
        x = Layers.batchNormalization(1, false, true).apply(x);
        SymbolicTensor pooled = Layers.gaussianNoise(0.2f).apply(Layers.globalMaxPooling2d().apply(x));
        SymbolicTensor a = Layers.dense(4, Activation.TANH).apply(pooled);
        SymbolicTensor b = Layers.dense(4, Activation.TANH).apply(pooled);
        SymbolicTensor cos = Layers.lambda((g, t) -> g.scale(t, 3f)).apply(Layers.dot(1, 1, true).apply(a, b));
        Model model = Model.of(in, Layers.dense(3).apply(Layers.concatenate().apply(pooled, cos)));
        OnnxRuntimeCheck.assertSamePredictions(model, images(4, 9, 8, 2));
    }
}
