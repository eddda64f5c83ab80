package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.brisk.nn.layers.RandomContrast;
import dev.brisk.nn.layers.RandomZoom;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The random augmentation layers record Keras 3's configs (factors, fill mode, interpolation, value range, seed),
 * load back predicting the same bits (they are the identity at inference) and, their seeds restored, train on to the
 * same weights (the same draws every step).
 */
class AugmentationLayersRoundTripTest {
    @TempDir
    Path dir;

    private static Model model() {
        RandomSeed.set(5);
        SymbolicTensor in = Input.of(8, 8, 2);
        SymbolicTensor x = Layers.randomFlip("horizontal").apply(in);
        x = Layers.randomRotation(0.1).apply(x);
        x = new RandomZoom(new double[] {-0.2, 0.3}, new double[] {-0.1, 0.1}, FillMode.CONSTANT, 0.5f,
                Interpolation.NEAREST, null).apply(x);
        x = Layers.randomTranslation(0.1, 0.2).apply(x);
        x = new RandomContrast(0.3, 0.4, -5f, 5f, null).apply(x);
        x = Layers.conv2d(4, 3, 1, Padding.SAME, Activation.RELU).apply(x);
        Model m = Model.of(in, Layers.dense(2).apply(Layers.globalAveragePooling2d().apply(x)));
        m.compile(Optimizers.adam(0.01f), Losses.sparseCategoricalCrossentropy(true));
        return m;
    }

    @Test
    void roundTripWithTheirOptionsAndSeeds() throws IOException {
        Tensor[] xy = ConvolutionVariantsRoundTripTest.data();
        Model m = model();
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(8).seed(1).verbose(0));
        Path file = dir.resolve("augment.keras");
        KerasModels.save(m, file);
        String config;
        try (ZipFile zip = new ZipFile(file.toFile())) {
            config = new String(zip.getInputStream(zip.getEntry("config.json")).readAllBytes(),
                    StandardCharsets.UTF_8).replace(" ", "");
        }
        for (String s : List.of("\"RandomFlip\"", "\"RandomRotation\"", "\"RandomZoom\"", "\"RandomTranslation\"",
                "\"RandomContrast\"", "\"mode\":\"horizontal\"", "\"factor\":[-0.1,0.1]", "\"fill_mode\":\"constant\"",
                "\"interpolation\":\"nearest\"", "\"width_factor\":[-0.1,0.1]", "\"value_range\":[-5.0,5.0]",
                "\"seed\":")) {
            assertTrue(config.contains(s), s + " in " + config);
        }
        Model loaded = KerasModels.load(file);
        assertEquals(m.summary(), loaded.summary());
        Tensor p = m.predict(xy[0], 8);
        assertArrayEquals(p.toArray(), loaded.predict(xy[0], 8).toArray());
        ConvolutionVariantsRoundTripTest.trainOnAlike(m, loaded, xy);
    }

    @Test
    void kerasFactorsAsNumbersAndDefaults() {
        LayerFactory rotation = KerasRegistry.builtIn().factory("RandomRotation", "test");
        var layer = rotation.create(new ConfigView("RandomRotation", new java.util.HashMap<>(
                java.util.Map.of("name", "rot", "factor", 0.25))));
        var c = layer.kerasConfig();
        assertEquals(List.of(-0.25, 0.25), c.get("factor"));
        assertEquals("reflect", c.get("fill_mode"));
        assertEquals("bilinear", c.get("interpolation"));
        LayerFactory contrast = KerasRegistry.builtIn().factory("RandomContrast", "test");
        var cc = contrast.create(new ConfigView("RandomContrast", new java.util.HashMap<>(
                java.util.Map.of("name", "con", "factor", 0.2, "seed", 17)))).kerasConfig();
        assertEquals(List.of(0.2, 0.2), cc.get("factor"));
        assertEquals(List.of(0f, 255f), cc.get("value_range"));
        assertEquals(17L, cc.get("seed"));
    }
}
