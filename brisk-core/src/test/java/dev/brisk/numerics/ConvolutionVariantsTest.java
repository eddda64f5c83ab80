package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.LayerGradientCheckTest.checkLayer;
import static dev.brisk.numerics.TorchFixturesTest.assertClose;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Conv2DTranspose;
import dev.brisk.nn.layers.DepthwiseConv2D;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.nn.layers.SeparableConv2D;
import dev.brisk.numerics.TorchFixturesTest.Fixture;
import dev.brisk.numerics.TorchFixturesTest.Pass;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conv2D with a dilation rate, DepthwiseConv2D, SeparableConv2D and Conv2DTranspose: outputs and gradients against
 * PyTorch ({@code tools/fixtures/make_conv_variant_fixtures.py}, relative error at most 1e-4), finite-difference
 * gradients (eager against compiled too), on the default and the scalar kernels; sizes and refusals as Keras'.
 */
class ConvolutionVariantsTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(46);
    }

    private static Padding padding(Fixture fx) {
        return Padding.valueOf(fx.str("padding").toUpperCase(Locale.ROOT));
    }

    private static int[] pair(Fixture fx, String key) {
        return new int[] {fx.intAt(key, 0), fx.intAt(key, 1)};
    }

    /** Runs {@code layer} with the fixture's weights and compares y and every gradient. */
    private static void compare(Kernels k, String name, Fixture fx, Layer layer, List<String> weightKeys) {
        TorchFixturesTest.build(k, layer, fx.t("x"));
        List<Variable> weights = layer.trainableWeights();
        assertEquals(weightKeys.size(), weights.size(), name + ": weights");
        for (int i = 0; i < weights.size(); i++) {
            weights.get(i).assign(fx.t(weightKeys.get(i)));
        }
        Pass p = TorchFixturesTest.layerPass(k, layer, true, fx.t("x"), fx.t("dy"), weights);
        assertClose(fx.t("y"), p.y(), name + " y");
        assertClose(fx.t("dx"), p.grads().get(0), name + " dx");
        for (int i = 0; i < weightKeys.size(); i++) {
            assertClose(fx.t("d" + weightKeys.get(i)), p.grads().get(i + 1), name + " d" + weightKeys.get(i));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void againstPyTorch(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("conv2d_dilated_same", "conv2d_dilated_valid")) {
            Fixture fx = Fixture.load(name);
            int[] ks = pair(fx, "kernel_size");
            int[] d = pair(fx, "dilation_rate");
            compare(k, name, fx, new Conv2D((int) fx.num("filters"), ks[0], ks[1], 1, 1, d[0], d[1], padding(fx),
                    Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null, null),
                    List.of("kernel", "bias"));
        }
        for (String name : List.of("depthwise_same_stride2", "depthwise_valid_dilated", "depthwise_same_asym")) {
            Fixture fx = Fixture.load(name);
            int[] ks = pair(fx, "kernel_size");
            int[] s = pair(fx, "strides");
            int[] d = pair(fx, "dilation_rate");
            compare(k, name, fx, new DepthwiseConv2D(ks[0], ks[1], s[0], s[1], d[0], d[1],
                    (int) fx.num("depth_multiplier"), padding(fx), Activation.LINEAR, true,
                    Initializer.glorotUniform(), Initializer.zeros(), null, null), List.of("kernel", "bias"));
        }
        Fixture sep = Fixture.load("separable_same_stride2");
        int[] ks = pair(sep, "kernel_size");
        int[] s = pair(sep, "strides");
        compare(k, "separable_same_stride2", sep, new SeparableConv2D((int) sep.num("filters"), ks[0], ks[1], s[0],
                s[1], 1, 1, (int) sep.num("depth_multiplier"), padding(sep), Activation.LINEAR, true,
                Initializer.glorotUniform(), Initializer.glorotUniform(), Initializer.zeros(), null),
                List.of("depthwise_kernel", "pointwise_kernel", "bias"));
        for (String name : List.of("conv2d_transpose_same_stride2", "conv2d_transpose_valid_stride2",
                "conv2d_transpose_valid_small_kernel", "conv2d_transpose_same_stride1")) {
            Fixture fx = Fixture.load(name);
            int[] kt = pair(fx, "kernel_size");
            int[] st = pair(fx, "strides");
            compare(k, name, fx, new Conv2DTranspose((int) fx.num("filters"), kt[0], kt[1], st[0], st[1],
                    padding(fx), Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null,
                    null), List.of("kernel", "bias"));
        }
        Fixture max = Fixture.load("global_max_pool2d");
        compare(k, "global_max_pool2d", max, Layers.globalMaxPooling2d(), List.of());
        Fixture crop = Fixture.load("cropping2d");
        compare(k, "cropping2d", crop, Layers.cropping2d(crop.intAt("cropping", 0), crop.intAt("cropping", 1),
                crop.intAt("cropping", 2), crop.intAt("cropping", 3)), List.of());
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void gradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        checkLayer(k, "dilated same tanh", new Conv2D(3, 3, 2, 1, 1, 2, 3, Padding.SAME, Activation.TANH, true,
                Initializer.glorotUniform(), Initializer.zeros(), null, null), true, null, gaussian(1, 1, 2, 6, 7, 2));
        checkLayer(k, "dilated valid", Layers.conv2d(2, 2, Padding.VALID, 2, Activation.LINEAR), true, null,
                gaussian(2, 1, 1, 6, 5, 3));
        checkLayer(k, "depthwise same stride 2 x2", Layers.depthwiseConv2d(3, 2, Padding.SAME, 2, Activation.TANH),
                true, null, gaussian(3, 1, 2, 5, 6, 3));
        checkLayer(k, "depthwise valid dilated", new DepthwiseConv2D(2, 3, 1, 1, 2, 1, 1, Padding.VALID,
                Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null, null), true, null,
                gaussian(4, 1, 2, 6, 5, 2));
        checkLayer(k, "separable", Layers.separableConv2d(3, 3, 2, Padding.VALID, Activation.SIGMOID), true, null,
                gaussian(5, 1, 2, 7, 6, 2));
        checkLayer(k, "transpose same stride 2", Layers.conv2dTranspose(2, 3, 2, Padding.SAME, Activation.TANH), true,
                null, gaussian(6, 1, 2, 3, 2, 3));
        checkLayer(k, "transpose valid small kernel", Layers.conv2dTranspose(3, 2, 3, Padding.VALID,
                Activation.LINEAR), true, null, gaussian(7, 1, 1, 2, 3, 2));
        checkLayer(k, "cropping", Layers.cropping2d(1, 0, 2, 1), true, null, gaussian(8, 1, 2, 4, 5, 2));
        checkLayer(k, "global max pooling", Layers.globalMaxPooling2d(), true, null, spread(9, 2, 3, 4, 3));
    }

    /** Values 0.1 apart in a shuffled order, so that no finite-difference step changes which one is the largest. */
    static Tensor spread(long seed, int... dims) {
        Shape shape = Shape.of(dims);
        List<Float> values = new ArrayList<>();
        for (int i = 0; i < shape.size(); i++) {
            values.add(0.1f * i - 0.05f * shape.size());
        }
        java.util.Collections.shuffle(values, new java.util.Random(seed));
        float[] v = new float[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i);
        }
        return Tensor.of(v, dims);
    }

    @Test
    void outputSizesAsKeras() {
        List<Shape> in = List.of(Shape.of(7, 8, 3));
        assertEquals(Shape.of(7, 8, 4), Layers.conv2d(4, 3, Padding.SAME, 2, Activation.LINEAR).outputShape(in));
        assertEquals(Shape.of(3, 4, 4), Layers.conv2d(4, 3, Padding.VALID, 2, Activation.LINEAR).outputShape(in));
        assertEquals(Shape.of(4, 4, 6), Layers.depthwiseConv2d(3, 2, Padding.SAME, 2, Activation.LINEAR)
                .outputShape(in));
        assertEquals(Shape.of(3, 3, 5), Layers.separableConv2d(5, 3, 2, Padding.VALID, Activation.LINEAR)
                .outputShape(in));
        // Keras: 'same' in * s; 'valid' in * s + max(k - s, 0)
        assertEquals(Shape.of(14, 16, 2), Layers.conv2dTranspose(2, 3, 2, Padding.SAME, Activation.LINEAR)
                .outputShape(in));
        assertEquals(Shape.of(15, 17, 2), Layers.conv2dTranspose(2, 3, 2, Padding.VALID, Activation.LINEAR)
                .outputShape(in));
        assertEquals(Shape.of(21, 24, 2), Layers.conv2dTranspose(2, 2, 3, Padding.VALID, Activation.LINEAR)
                .outputShape(in));
        assertEquals(Shape.of(3), Layers.globalMaxPooling2d().outputShape(in));
        assertEquals(Shape.of(4, 5, 3), Layers.cropping2d(1, 2, 0, 3).outputShape(in));
    }

    @Test
    void refusals() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Conv2D(2, 3, 3, 2, 2, 2,
                2, Padding.SAME, Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null,
                null));
        assertTrue(e.getMessage().contains("dilation_rate"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new DepthwiseConv2D(3, 3, 2, 2, 2, 2, 1,
                Padding.SAME, Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null, null));
        assertTrue(e.getMessage().contains("DepthwiseConv2D"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Layers.separableConv2d(2, 3, 1, Padding.CAUSAL, Activation.LINEAR));
        assertTrue(e.getMessage().contains("SeparableConv2D"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Conv2DTranspose(2, 0, 3, 1, 1, Padding.SAME,
                Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(), null, null));
        assertTrue(e.getMessage().contains("Conv2DTranspose") && e.getMessage().contains("kernel 0x3"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Layers.cropping2d(3, 4, 0, 0).outputShape(List.of(Shape.of(7, 8, 3))));
        assertTrue(e.getMessage().contains("Cropping2D") && e.getMessage().contains("leaves nothing"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Layers.cropping2d(1, 1, 1, 1).outputShape(List.of(Shape.of(7, 8))));
        assertTrue(e.getMessage().contains("Cropping2D takes [height, width, channels]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Layers.zeroPadding2d(-1));
        assertTrue(e.getMessage().contains("ZeroPadding2D") && e.getMessage().contains("((-1, -1), (-1, -1))"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Layers.depthwiseConv2d(5, 1, Padding.VALID, 1,
                Activation.LINEAR).outputShape(List.of(Shape.of(3, 8, 3))));
        assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
    }
}
