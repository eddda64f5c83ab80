package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brisk.nn.Input;
import dev.brisk.nn.InputLayer;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sequence length left open is written as Keras writes {@code Input(shape=(None,))}, {@code null} in
 * {@code batch_shape}, and read back open; and a Keras-made file whose input is {@code [null, null]} loads and
 * predicts what Keras predicts, at the length Keras was given and at others.
 */
class OpenLengthFilesTest {
    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void anOpenLengthIsSavedAsNullAndReadBackOpen() throws IOException {
        SymbolicTensor ids = Input.of(DType.INT32, Shape.OPEN);
        SymbolicTensor h = Layers.lstm(4).apply(Layers.embedding(12, 5, true).apply(ids));
        Model m = Model.of(List.of(ids), List.of(Layers.dense(2).apply(h)));
        Path file = dir.resolve("open.keras");
        KerasModels.save(m, file);
        try (ZipFile zip = new ZipFile(file.toFile())) {
            Map<String, Object> config = Json.parseObject(zip.getInputStream(zip.getEntry("config.json"))
                    .readAllBytes());
            List<Object> layers = (List<Object>) ((Map<String, Object>) config.get("config")).get("layers");
            Map<String, Object> input = (Map<String, Object>) ((Map<String, Object>) layers.get(0)).get("config");
            assertEquals(Arrays.asList(null, null), input.get("batch_shape"));
        }
        Model loaded = KerasModels.load(file);
        assertEquals(Shape.of(Shape.OPEN), loaded.inputs().get(0).shape());
        for (int length : new int[] {3, 8}) {
            int[] v = new int[2 * length];
            for (int i = 0; i < v.length; i++) {
                v[i] = i % 11 + 1;
            }
            Tensor x = Tensor.ofInts(v, 2, length);
            assertEquals(Arrays.toString(m.predict(x).toArray()), Arrays.toString(loaded.predict(x).toArray()),
                    "length " + length);
        }
    }

    /** A Sequential config without an InputLayer, built from {@code build_input_shape: [null, null, 4]}. */
    @Test
    @SuppressWarnings("unchecked")
    void aSequentialBuiltFromAnOpenBuildInputShape() throws IOException {
        Model m = Sequential.of(new InputLayer(Shape.of(Shape.OPEN, 4), null), Layers.lstm(3));
        Map<String, Object> config = Json.parseObject(Json.write(ModelConfig.of(m)));
        Map<String, Object> inner = (Map<String, Object>) config.get("config");
        ((List<Object>) inner.get("layers")).remove(0);
        assertEquals(Arrays.asList(null, null, 4), inner.get("build_input_shape"));
        Model built = ModelConfig.build(config, KerasRegistry.builtIn());
        assertEquals(Shape.of(Shape.OPEN, 4), built.inputs().get(0).shape());
        assertEquals(Shape.of(2, 3), built.predict(Tensor.zeros(2, 6, 4)).shape());
    }

    /**
     * Keras' own sequence fixture ({@code Embedding(mask_zero) -> LSTM -> GRU -> Dense}, saved for length 7) with
     * its input and build shapes rewritten to {@code [null, null]}, as Keras writes a model made with
     * {@code Input(shape=(None,))}: it predicts Keras' outputs for Keras' inputs, and the same with two more padded
     * steps (masked), and its batch of one sequence cut to its own length.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aKerasFileWithAnOpenLengthLoadsAndPredictsAsKeras() throws IOException {
        Path source = KerasImportFixturesTest.resource("sequence.keras");
        Path open = dir.resolve("sequence-open.keras");
        try (ZipFile zip = new ZipFile(source.toFile());
             OutputStream out = Files.newOutputStream(open);
             ZipOutputStream z = new ZipOutputStream(out)) {
            for (ZipEntry e : zip.stream().toList()) {
                byte[] bytes = zip.getInputStream(e).readAllBytes();
                if (e.getName().equals("config.json")) {
                    Map<String, Object> config = Json.parseObject(bytes);
                    openLengths(config);
                    bytes = Json.write(config);
                }
                z.putNextEntry(new ZipEntry(e.getName()));
                z.write(bytes);
                z.closeEntry();
            }
        }
        Model m = KerasModels.load(open);
        assertEquals(Shape.of(Shape.OPEN), m.inputs().get(0).shape());
        JsonNode doc = KerasImportFixturesTest.expected("sequence");
        Tensor x = KerasImportFixturesTest.tensor(doc.get("inputs").get("input_layer"));
        float[] want = KerasImportFixturesTest.tensor(doc.get("outputs").get(0)).toArray();
        assertClose(want, m.predict(x).toArray(), "length 7, as Keras ran it");
        int n = x.shape().dim(0);
        int[] longer = new int[n * 9];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < 7; t++) {
                longer[i * 9 + t] = intAt(x, i * 7 + t);
            }
        }
        assertClose(want, m.predict(Tensor.ofInts(longer, n, 9)).toArray(), "two more padded steps");
        int own = 7;
        while (own > 1 && intAt(x, own - 1) == 0) {
            own--;
        }
        int[] first = new int[own];
        for (int t = 0; t < own; t++) {
            first[t] = intAt(x, t);
        }
        float[] alone = m.predict(Tensor.ofInts(first, 1, own)).toArray();
        assertClose(Arrays.copyOf(want, alone.length), alone, "the first sequence alone at its length " + own);
    }

    /** Every {@code batch_shape} and {@code input_shape} of the config, at any depth, with its length axis null. */
    @SuppressWarnings("unchecked")
    private static void openLengths(Object node) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> m = (Map<String, Object>) map;
            for (String key : List.of("batch_shape", "input_shape")) {
                if (m.get(key) instanceof List<?> shape && shape.size() >= 2) {
                    List<Object> s = new ArrayList<>(shape);
                    s.set(1, null);
                    m.put(key, s);
                }
            }
            m.values().forEach(OpenLengthFilesTest::openLengths);
        } else if (node instanceof List<?> list) {
            list.forEach(OpenLengthFilesTest::openLengths);
        }
    }

    private static int intAt(Tensor ids, int i) {
        return ids.intAt(i);
    }

    private static void assertClose(float[] want, float[] got, String what) {
        assertEquals(want.length, got.length, what);
        for (int i = 0; i < want.length; i++) {
            assertTrue(Math.abs(want[i] - got[i]) <= 1e-5 * Math.max(1, Math.abs(want[i])),
                    what + " [" + i + "]: " + got[i] + " vs Keras " + want[i]);
        }
    }
}
