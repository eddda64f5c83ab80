package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MultiHeadAttention's {@code use_causal_mask} and attention mask are written as Keras 3 records them (call
 * arguments of each call in {@code inbound_nodes}), read back from there, and still read from Brisk's older files
 * (flags in the layer's config).
 */
class AttentionCallsTest {
    @TempDir
    Path dir;

    /** Query [6, 4], value [5, 4], a [6, 5] attention mask, causal: every part of the call in use. */
    private static Model model() {
        RandomSeed.set(5);
        SymbolicTensor q = Input.named("q", 6, 4);
        SymbolicTensor v = Input.named("v", 5, 4);
        SymbolicTensor mask = Input.named("mask", 6, 5);
        SymbolicTensor a = new MultiHeadAttention(2, 3, 3, 0f, true, true, true, "mha").apply(q, v, mask);
        SymbolicTensor out = Layers.dense(2).apply(Layers.globalAveragePooling1d().apply(a));
        return Model.of(List.of(q, v, mask), List.of(out));
    }

    private static Tensor[] inputs() {
        int n = 3;
        float[] q = new float[n * 6 * 4];
        float[] v = new float[n * 5 * 4];
        float[] m = new float[n * 6 * 5];
        for (int i = 0; i < q.length; i++) {
            q[i] = (float) Math.sin(i * 0.37);
        }
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) Math.cos(i * 0.23);
        }
        for (int i = 0; i < m.length; i++) {
            m[i] = (i * 7) % 5 == 0 ? 0f : 1f;
        }
        return new Tensor[] {Tensor.of(q, n, 6, 4), Tensor.of(v, n, 5, 4), Tensor.of(m, n, 6, 5)};
    }

    private static Map<String, byte[]> entries(Path file) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(file.toFile())) {
            for (ZipEntry e : zip.stream().toList()) {
                out.put(e.getName(), zip.getInputStream(e).readAllBytes());
            }
        }
        return out;
    }

    private Path withConfig(String name, Map<String, byte[]> entries, Map<String, Object> config)
            throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream os = Files.newOutputStream(p); ZipOutputStream z = new ZipOutputStream(os)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getKey().equals("config.json") ? Json.write(config) : e.getValue());
                z.closeEntry();
            }
        }
        return p;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> layerNamed(Map<String, Object> config, String name) {
        for (Object o : (List<Object>) ((Map<String, Object>) config.get("config")).get("layers")) {
            Map<String, Object> l = (Map<String, Object>) o;
            if (name.equals(l.get("name"))) {
                return l;
            }
        }
        throw new AssertionError("no layer " + name);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> history(Object kerasTensor) {
        Map<String, Object> t = (Map<String, Object>) kerasTensor;
        assertEquals("__keras_tensor__", t.get("class_name"));
        return (List<Object>) ((Map<String, Object>) t.get("config")).get("keras_history");
    }

    @Test
    @SuppressWarnings("unchecked")
    void callArgumentsAreWrittenAsKerasRecordsThemAndReadBack() throws IOException {
        Model m = model();
        Tensor[] x = inputs();
        Path file = dir.resolve("mha.keras");
        KerasModels.save(m, file);
        Map<String, byte[]> entries = entries(file);
        Map<String, Object> config = Json.parseObject(entries.get("config.json"));
        Map<String, Object> mha = layerNamed(config, "mha");
        Map<String, Object> layerConfig = (Map<String, Object>) mha.get("config");
        assertFalse(layerConfig.containsKey("use_causal_mask"), layerConfig.toString());
        assertFalse(layerConfig.containsKey("attention_mask_input"), layerConfig.toString());
        List<Object> nodes = (List<Object>) mha.get("inbound_nodes");
        assertEquals(1, nodes.size());
        Map<String, Object> node = (Map<String, Object>) nodes.get(0);
        List<Object> args = (List<Object>) node.get("args");
        // Keras' call(query, value, ...): two positional tensors, not one list argument.
        assertEquals(2, args.size());
        assertEquals(List.of("q", 0, 0), history(args.get(0)));
        assertEquals(List.of("v", 0, 0), history(args.get(1)));
        Map<String, Object> kwargs = (Map<String, Object>) node.get("kwargs");
        assertEquals(List.of("attention_mask", "use_causal_mask"), new ArrayList<>(kwargs.keySet()));
        assertEquals(List.of("mask", 0, 0), history(kwargs.get("attention_mask")));
        assertEquals(Boolean.TRUE, kwargs.get("use_causal_mask"));
        // Keras' get_build_config for build(query_shape, value_shape): a shapes_dict without the mask.
        Map<String, Object> build = (Map<String, Object>) mha.get("build_config");
        Map<String, Object> shapes = (Map<String, Object>) build.get("shapes_dict");
        assertEquals(Arrays.asList(null, 6, 4), shapes.get("query_shape"));
        assertEquals(Arrays.asList(null, 5, 4), shapes.get("value_shape"));
        assertEquals(2, shapes.size());

        Model loaded = KerasModels.load(file);
        MultiHeadAttention again = (MultiHeadAttention) loaded.layer("mha");
        assertTrue(again.useCausalMask());
        assertTrue(again.attentionMaskInput());
        assertArrayEquals(m.predict(x, 3)[0].toArray(), loaded.predict(x, 3)[0].toArray());

        // Brisk's older files: flags in the config, the inputs as one list argument, no keyword arguments.
        layerConfig.put("use_causal_mask", true);
        layerConfig.put("attention_mask_input", true);
        node.put("args", List.of(List.of(args.get(0), args.get(1), kwargs.get("attention_mask"))));
        node.put("kwargs", Map.of());
        Model old = KerasModels.load(withConfig("old.keras", entries, config));
        assertArrayEquals(m.predict(x, 3)[0].toArray(), old.predict(x, 3)[0].toArray());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCausalFlagGivenOnlyByTheCallChangesThePredictions() throws IOException {
        Model m = model();
        Tensor[] x = inputs();
        Path file = dir.resolve("mha.keras");
        KerasModels.save(m, file);
        Map<String, byte[]> entries = entries(file);
        Map<String, Object> config = Json.parseObject(entries.get("config.json"));
        Map<String, Object> node = (Map<String, Object>) ((List<Object>) layerNamed(config, "mha")
                .get("inbound_nodes")).get(0);
        Map<String, Object> kwargs = (Map<String, Object>) node.get("kwargs");
        kwargs.put("use_causal_mask", false);
        Model notCausal = KerasModels.load(withConfig("plain.keras", entries, config));
        assertFalse(((MultiHeadAttention) notCausal.layer("mha")).useCausalMask());
        assertFalse(java.util.Arrays.equals(m.predict(x, 3)[0].toArray(), notCausal.predict(x, 3)[0].toArray()));

        // Keras' keyword form of the sequences: query and value by name.
        List<Object> args = (List<Object>) node.get("args");
        kwargs.put("use_causal_mask", true);
        kwargs.put("query", args.get(0));
        kwargs.put("value", args.get(1));
        node.put("args", List.of());
        Model named = KerasModels.load(withConfig("named.keras", entries, config));
        assertArrayEquals(m.predict(x, 3)[0].toArray(), named.predict(x, 3)[0].toArray());

        // Given twice: refused, naming the layer and the argument.
        node.put("args", args);
        ConfigError e = assertThrows(ConfigError.class, () -> ModelConfig.build(config, KerasRegistry.builtIn()));
        assertTrue(e.getMessage().contains("'mha'") && e.getMessage().contains("'query'"), e.getMessage());
    }

    @Test
    @SuppressWarnings("unchecked")
    void callsOfOneSharedLayerThatDifferInTheFlagsAreRefused() throws IOException {
        RandomSeed.set(6);
        SymbolicTensor a = Input.named("a", 4, 4);
        SymbolicTensor b = Input.named("b", 4, 4);
        MultiHeadAttention shared = new MultiHeadAttention(1, 2, 2, 0f, true, false, false, "shared");
        SymbolicTensor y = Layers.add().apply(shared.apply(a, a), shared.apply(b, b));
        Model m = Model.of(List.of(a, b), List.of(y));
        Path file = dir.resolve("shared.keras");
        KerasModels.save(m, file);
        Map<String, Object> config = Json.parseObject(entries(file).get("config.json"));
        List<Object> nodes = (List<Object>) layerNamed(config, "shared").get("inbound_nodes");
        assertEquals(2, nodes.size());
        ((Map<String, Object>) ((Map<String, Object>) nodes.get(1)).get("kwargs")).put("use_causal_mask", true);
        ConfigError e = assertThrows(ConfigError.class, () -> ModelConfig.build(config, KerasRegistry.builtIn()));
        assertTrue(e.getMessage().contains("'shared'") && e.getMessage().contains("use_causal_mask"),
                e.getMessage());
    }

    @Test
    void returnedAttentionScoresAreRefused() throws IOException {
        Model m = model();
        Path file = dir.resolve("mha.keras");
        KerasModels.save(m, file);
        String json = new String(entries(file).get("config.json"), StandardCharsets.UTF_8)
                .replace("\"use_causal_mask\":true", "\"use_causal_mask\":true,\"return_attention_scores\":true");
        ConfigError e = assertThrows(ConfigError.class,
                () -> ModelConfig.build(Json.parseObject(json.getBytes(StandardCharsets.UTF_8)),
                        KerasRegistry.builtIn()));
        assertTrue(e.getMessage().contains("return_attention_scores"), e.getMessage());
    }
}
