package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The convolution variants and image layers of issue 28 record Keras 3's configs (dilation, depth multiplier,
 * cropping, axes, center and scale ...) and weights, load back predicting the same bits and train on to the same
 * weights; a Lambda layer is refused on save, by name.
 */
class ConvolutionVariantsRoundTripTest {
    @TempDir
    Path dir;

    private static Model model() {
        RandomSeed.set(31);
        SymbolicTensor in = Input.of(8, 8, 2);
        SymbolicTensor x = Layers.conv2d(4, 3, Padding.SAME, 2, Activation.RELU).apply(in);
        x = Layers.depthwiseConv2d(3, 2, Padding.SAME, 2, Activation.TANH).apply(x);
        x = Layers.separableConv2d(6, 3, 1, Padding.SAME, Activation.RELU).apply(x);
        x = Layers.spatialDropout2d(0.2f).apply(x);
        x = Layers.conv2dTranspose(4, 3, 2, Padding.VALID, Activation.LINEAR).apply(x);
        x = Layers.cropping2d(1, 2, 0, 1).apply(x);
        x = Layers.batchNormalization(1, false, true).apply(x);
        SymbolicTensor pooled = Layers.gaussianNoise(0.1f).apply(Layers.globalMaxPooling2d().apply(x));
        SymbolicTensor a = Layers.dense(4, Activation.TANH).apply(pooled);
        SymbolicTensor b = Layers.dense(4, Activation.TANH).apply(pooled);
        SymbolicTensor both = Layers.concatenate().apply(pooled, Layers.dot(1, 1, true).apply(a, b));
        Model m = Model.of(in, Layers.dense(2).apply(both));
        m.compile(Optimizers.adam(0.01f), Losses.sparseCategoricalCrossentropy(true));
        return m;
    }

    /** Sixteen 8 x 8 x 2 gaussian images and alternating labels. */
    static Tensor[] data() {
        SplittableRandom rnd = new SplittableRandom(4);
        float[] pixels = new float[16 * 128];
        float[] labels = new float[16];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (float) rnd.nextGaussian();
        }
        for (int i = 0; i < labels.length; i++) {
            labels[i] = i % 2;
        }
        return new Tensor[] {Tensor.of(pixels, 16, 8, 8, 2), Tensor.of(labels, 16, 1)};
    }

    @Test
    void roundTripWithTheirOptions() throws IOException {
        Tensor[] xy = data();
        Model m = model();
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(8).seed(1).verbose(0));
        Path file = dir.resolve("variants.keras");
        KerasModels.save(m, file);
        String config;
        try (ZipFile zip = new ZipFile(file.toFile())) {
            config = new String(zip.getInputStream(zip.getEntry("config.json")).readAllBytes(),
                    StandardCharsets.UTF_8).replace(" ", "");
        }
        for (String s : List.of("\"DepthwiseConv2D\"", "\"SeparableConv2D\"", "\"Conv2DTranspose\"",
                "\"GlobalMaxPooling2D\"", "\"Cropping2D\"", "\"SpatialDropout2D\"", "\"Dot\"", "\"GaussianNoise\"",
                "\"dilation_rate\":[2,2]", "\"depth_multiplier\":2", "\"cropping\":[[1,2],[0,1]]", "\"axes\":[1,1]",
                "\"normalize\":true", "\"center\":false", "\"axis\":1")) {
            assertTrue(config.contains(s), s + " in " + config);
        }
        Model loaded = KerasModels.load(file);
        assertEquals(m.summary(), loaded.summary());
        assertArrayEquals(m.predict(xy[0], 8).toArray(), loaded.predict(xy[0], 8).toArray());
        trainOnAlike(m, loaded, xy);
    }

    /** One more epoch of {@code m} and of its loaded copy, with the same seed, ends at the same weights. */
    static void trainOnAlike(Model m, Model loaded, Tensor[] xy) {
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        loaded.fit(xy[0], xy[1], Fit.epochs(1).batchSize(8).seed(2).verbose(0));
        List<Tensor> wa = m.getWeights();
        List<Tensor> wb = loaded.getWeights();
        assertEquals(wa.size(), wb.size());
        for (int i = 0; i < wa.size(); i++) {
            assertArrayEquals(wa.get(i).toArray(), wb.get(i).toArray(), m.variables().get(i).name());
        }
    }

    @Test
    void aLambdaLayerIsRefusedOnSaveByName() {
        SymbolicTensor in = Input.of(3);
        var lambda = Layers.lambda((g, t) -> g.scale(t, 2f));
        Model m = Model.of(in, Layers.dense(1).apply(lambda.apply(in)));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        Path file = dir.resolve("lambda.keras");
        IOException e = assertThrows(IOException.class, () -> KerasModels.save(m, file));
        assertTrue(e.getMessage().contains("'" + lambda.name() + "' (Lambda)"), e.getMessage());
        assertFalse(Files.exists(file));
    }
}
