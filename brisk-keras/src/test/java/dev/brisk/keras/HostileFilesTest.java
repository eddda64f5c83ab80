package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Truncated, damaged and hostile {@code .keras} files are refused with an error naming the file and the entry,
 * before any large allocation, and a failed load leaves an existing model as it was.
 */
class HostileFilesTest {
    @TempDir
    Path dir;
    private Path good;
    private Map<String, byte[]> entries;
    private Model model;
    private Tensor x;

    @BeforeEach
    void save() throws IOException {
        RandomSeed.set(1);
        model = Sequential.of(Layers.input(6), Layers.dense(5, Activation.RELU), Layers.batchNormalization(),
                Layers.dense(3));
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        float[] v = new float[4 * 6];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i % 7) * 0.3f - 1;
        }
        x = Tensor.of(v, 4, 6);
        good = dir.resolve("good.keras");
        KerasModels.save(model, good);
        entries = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(good.toFile())) {
            for (ZipEntry e : zip.stream().toList()) {
                entries.put(e.getName(), zip.getInputStream(e).readAllBytes());
            }
        }
    }

    private Path zip(String name, Map<String, byte[]> content, int method) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream os = Files.newOutputStream(p); ZipOutputStream z = new ZipOutputStream(os)) {
            z.setMethod(method);
            z.setLevel(9);
            for (Map.Entry<String, byte[]> e : content.entrySet()) {
                ZipEntry ze = new ZipEntry(e.getKey());
                if (method == ZipEntry.STORED) {
                    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                    crc.update(e.getValue());
                    ze.setSize(e.getValue().length);
                    ze.setCompressedSize(e.getValue().length);
                    ze.setCrc(crc.getValue());
                }
                z.putNextEntry(ze);
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return p;
    }

    private Path withConfig(String name, String from, String to) throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>(entries);
        String config = new String(m.get("config.json"), StandardCharsets.UTF_8);
        assertTrue(config.contains(from), config);
        m.put("config.json", config.replace(from, to).getBytes(StandardCharsets.UTF_8));
        return zip(name, m, ZipEntry.DEFLATED);
    }

    private static void refused(Path file, String... mustName) {
        try {
            KerasModels.load(file);
            fail("loaded " + file);
        } catch (KerasFileException e) {
            assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
            for (String s : mustName) {
                assertTrue(e.getMessage().contains(s), "'" + s + "' not in: " + e.getMessage());
            }
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("not a KerasFileException: " + e, e);
        }
    }

    @Test
    void refusesPathTraversalAbsoluteNamesAndMissingEntries() throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>(entries);
        m.put("../../etc/passwd", new byte[] {1});
        refused(zip("traversal.keras", m, ZipEntry.DEFLATED), "../../etc/passwd", "path traversal");
        m = new LinkedHashMap<>(entries);
        m.put("/abs/x", new byte[] {1});
        refused(zip("absolute.keras", m, ZipEntry.DEFLATED), "/abs/x");
        m = new LinkedHashMap<>(entries);
        m.remove("model.weights.h5");
        refused(zip("missing.keras", m, ZipEntry.STORED), "model.weights.h5", "missing");
        Files.write(dir.resolve("text.keras"), "not a zip".getBytes(StandardCharsets.UTF_8));
        refused(dir.resolve("text.keras"), "zip");
    }

    @Test
    void refusesZipBombsBeforeHoldingTheirBytes() throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>(entries);
        m.put("config.json", new byte[20 << 20]); // 20 MiB of zeros deflate to about 20 KB
        refused(zip("bomb-config.keras", m, ZipEntry.DEFLATED), "config.json", "limit");
        m = new LinkedHashMap<>(entries);
        m.put("model.weights.h5", new byte[64 << 20]);
        long before = used();
        refused(zip("bomb-weights.keras", m, ZipEntry.DEFLATED), "model.weights.h5", "zip bomb");
        assertTrue(used() - before < (48L << 20), "the bomb was inflated before it was refused");
    }

    private static long used() {
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    @Test
    void refusesUnknownClassesAbsurdSizesAndShapesThatDoNotMatch() throws IOException {
        refused(withConfig("class.keras", "\"class_name\":\"Dense\"", "\"class_name\":\"os.system\""),
                "config.json", "unknown layer class 'os.system'");
        refused(withConfig("units.keras", "\"units\":5", "\"units\":16000000"), "config.json", "dense", "more than");
        refused(withConfig("huge.keras", "\"units\":5", "\"units\":2000000000"), "config.json", "units");
        refused(withConfig("shape.keras", "\"units\":3", "\"units\":4"), "model.weights.h5", "layers/dense_1/vars/0",
                "shape");
        refused(withConfig("activation.keras", "\"activation\":\"relu\"", "\"activation\":\"swish\""),
                "config.json", "swish");
        refused(withConfig("optimizer.keras", "\"class_name\":\"Adam\"", "\"class_name\":\"Adafactor\""), "config.json",
                "Adafactor");
        Map<String, byte[]> m = new LinkedHashMap<>(entries);
        m.put("config.json", "[".repeat(100_000).getBytes(StandardCharsets.UTF_8));
        refused(zip("deep.keras", m, ZipEntry.DEFLATED), "config.json");
    }

    /**
     * Random truncations and byte flips of a real file: each load either fails with a KerasFileException or, when
     * the damage missed everything that matters (a zip header's time stamp), gives the same model.
     */
    @Test
    void fuzzedFilesFailCleanlyOrLoadTheSameModel() throws IOException {
        byte[] bytes = Files.readAllBytes(good);
        float[] expected = model.predict(x).toArray();
        Model existing = Sequential.of(Layers.input(6), Layers.dense(5, Activation.RELU),
                Layers.batchNormalization(), Layers.dense(3));
        List<Tensor> existingWeights = existing.getWeights();
        SplittableRandom r = new SplittableRandom(42);
        Path p = dir.resolve("fuzz.keras");
        int failed = 0;
        int loaded = 0;
        for (int round = 0; round < 400; round++) {
            byte[] b;
            if (round % 3 == 0) {
                b = java.util.Arrays.copyOf(bytes, r.nextInt(bytes.length));
            } else {
                b = bytes.clone();
                int flips = 1 + r.nextInt(4);
                for (int i = 0; i < flips; i++) {
                    b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                }
            }
            Files.write(p, b);
            try {
                Model m = KerasModels.load(p);
                assertArrayEquals(expected, m.predict(x).toArray(), "round " + round + " loaded a different model");
                loaded++;
            } catch (KerasFileException e) {
                assertTrue(e.getMessage().startsWith(p.toString()), e.getMessage());
                failed++;
            } catch (IOException | RuntimeException e) {
                throw new AssertionError("round " + round + ": not a KerasFileException: " + e, e);
            }
            try {
                KerasModels.loadWeights(existing, p);
            } catch (IOException e) {
                List<Tensor> now = existing.getWeights();
                for (int i = 0; i < now.size(); i++) {
                    assertArrayEquals(existingWeights.get(i).toArray(), now.get(i).toArray(), "round " + round);
                }
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError("round " + round + ": loadWeights threw " + e, e);
            }
            existing.setWeights(existingWeights);
        }
        assertTrue(failed > 300, "only " + failed + " of 400 damaged files failed (" + loaded + " loaded)");
    }
}
