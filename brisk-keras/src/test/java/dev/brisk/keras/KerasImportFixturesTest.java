package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code .keras} files written as Keras 3 writes them ({@code tools/fixtures/make_keras_fixtures.py}, which states
 * the Keras versions and source files it reproduces) load in Brisk and predict what the generator computed
 * independently in numpy with Keras' semantics: {@code |brisk - expected| <= 1e-5 * max|expected|} per output.
 */
class KerasImportFixturesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Path resource(String name) {
        try {
            return Path.of(KerasImportFixturesTest.class.getResource("/keras3/" + name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("missing test resource keras3/" + name, e);
        }
    }

    static JsonNode expected(String name) throws IOException {
        return JSON.readTree(resource(name + ".expected.json").toFile());
    }

    static Tensor tensor(JsonNode t) {
        int[] shape = new int[t.get("shape").size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = t.get("shape").get(i).asInt();
        }
        JsonNode data = t.get("data");
        if (t.get("dtype").asText().startsWith("int")) {
            int[] v = new int[data.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = data.get(i).asInt();
            }
            return Tensor.ofInts(v, shape);
        }
        float[] v = new float[data.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) data.get(i).asDouble();
        }
        return Tensor.of(v, shape);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mlp", "cnn", "branches", "sequence", "wrapped", "attention"})
    void aKeras3FilePredictsWhatKerasWould(String name) throws IOException {
        JsonNode doc = expected(name);
        Model m = KerasModels.load(resource(name + ".keras"));
        Tensor[] inputs = new Tensor[m.inputs().size()];
        for (int i = 0; i < inputs.length; i++) {
            String input = m.inputs().get(i).layer().name();
            assertNotNull(doc.get("inputs").get(input), name + ": no expected input " + input);
            inputs[i] = tensor(doc.get("inputs").get(input));
        }
        Tensor[] got = m.predict(inputs, 2);
        JsonNode outputs = doc.get("outputs");
        assertEquals(outputs.size(), got.length, name + ": outputs");
        for (int o = 0; o < got.length; o++) {
            Tensor want = tensor(outputs.get(o));
            assertArrayEquals(want.shape().dims(), got[o].shape().dims(), name + " output " + o + " shape");
            float[] w = want.toArray();
            float[] g = got[o].toArray();
            double scale = 0;
            for (float v : w) {
                scale = Math.max(scale, Math.abs(v));
            }
            for (int i = 0; i < w.length; i++) {
                double err = Math.abs(g[i] - (double) w[i]);
                assertTrue(err <= 1e-5 * scale, name + " output " + o + "[" + i + "]: " + g[i] + " vs " + w[i]
                        + " (scale " + scale + ")");
            }
        }
    }

    @Test
    void aTrainedAdamsStateLoadsFromKerasLayout() throws IOException {
        JsonNode want = expected("mlp").get("optimizer");
        Model m = KerasModels.load(resource("mlp.keras"));
        Optimizer opt = m.optimizer();
        assertEquals(want.get("iterations").asLong(), opt.iterations());
        assertEquals((float) want.get("learning_rate").asDouble(), opt.learningRate());
        List<Variable> vars = m.trainableVariables();
        List<Variable> firstSlots = opt.slotsOf(vars.get(0));
        List<Variable> lastSlots = opt.slotsOf(vars.get(vars.size() - 1));
        assertArrayEquals(floats(want.get("first_momentum")), firstSlots.get(0).value().toArray());
        assertArrayEquals(floats(want.get("last_velocity")), lastSlots.get(1).value().toArray());
        assertEquals(List.of("accuracy"), CompileConfig.of(m).get("metrics"));
    }

    @Test
    void aFunctionalModelsLayersAreNumberedInKerasOrder() throws IOException {
        JsonNode want = expected("branches").get("layer_order");
        Model m = KerasModels.load(resource("branches.keras"));
        List<String> names = new ArrayList<>();
        for (Layer l : KerasOrder.layers(m)) {
            names.add(l.name());
        }
        List<String> expectedNames = new ArrayList<>();
        want.forEach(n -> expectedNames.add(n.asText()));
        assertEquals(expectedNames, names);
        // Compiled, never trained: Keras saved no slots, and the loaded optimizer starts fresh.
        assertEquals(0, m.optimizer().iterations());
        assertEquals(0.01f, m.optimizer().learningRate());
    }

    @Test
    void aKerasFileSavedAgainByBriskKeepsKerasOrderAndPredictions() throws IOException {
        for (String name : List.of("branches", "sequence", "wrapped", "attention")) {
            Model m = KerasModels.load(resource(name + ".keras"));
            Path again = dir.resolve(name + ".keras");
            KerasModels.save(m, again);
            Model back = KerasModels.load(again);
            JsonNode doc = expected(name);
            Tensor[] in = new Tensor[m.inputs().size()];
            for (int i = 0; i < in.length; i++) {
                in[i] = tensor(doc.get("inputs").get(m.inputs().get(i).layer().name()));
            }
            Tensor[] a = m.predict(in, 8);
            Tensor[] b = back.predict(in, 8);
            for (int o = 0; o < a.length; o++) {
                assertArrayEquals(a[o].toArray(), b[o].toArray(), name + " output " + o);
            }
        }
    }

    @Test
    void multiHeadAttentionsCausalCallArgumentLoadsAndIsWrittenBackAsKerasWroteIt() throws IOException {
        Model m = KerasModels.load(resource("attention.keras"));
        var mha = (dev.brisk.nn.layers.MultiHeadAttention) m.layer("multi_head_attention");
        assertTrue(mha.useCausalMask());
        assertFalse(mha.attentionMaskInput());
        Path again = dir.resolve("attention-again.keras");
        KerasModels.save(m, again);
        JsonNode keras = layerNamed(configOf(resource("attention.keras")), "multi_head_attention");
        JsonNode brisk = layerNamed(configOf(again), "multi_head_attention");
        assertEquals(keras.get("inbound_nodes"), brisk.get("inbound_nodes"));
        assertEquals(keras.get("build_config"), brisk.get("build_config"));
        assertFalse(brisk.get("config").has("use_causal_mask"));
    }

    private static JsonNode configOf(Path file) throws IOException {
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(file.toFile())) {
            return JSON.readTree(zip.getInputStream(zip.getEntry("config.json")).readAllBytes());
        }
    }

    private static JsonNode layerNamed(JsonNode config, String name) {
        for (JsonNode l : config.get("config").get("layers")) {
            if (name.equals(l.get("name").asText())) {
                return l;
            }
        }
        throw new AssertionError("no layer " + name);
    }

    private static float[] floats(JsonNode a) {
        float[] out = new float[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) a.get(i).asDouble();
        }
        return out;
    }
}
