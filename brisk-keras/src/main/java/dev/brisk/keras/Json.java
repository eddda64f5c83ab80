package dev.brisk.keras;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.brisk.io.KerasObject;
import dev.brisk.nn.DTypePolicy;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Regularizer;
import dev.brisk.optimizers.LearningRateSchedule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keras' JSON: parsing with limits (a hostile file's nesting, strings and numbers stay small), and writing the
 * plain-Java trees the config writer builds, with Brisk's {@link KerasObject}s nested as Keras nests serialized
 * objects ({@code module}, {@code class_name}, {@code config}, {@code registered_name}).
 */
final class Json {
    /** Deeper than any Keras config (a functional model's layer config nests about 10 levels). */
    static final int MAX_DEPTH = 64;
    private static final ObjectMapper READER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(1 << 20).maxNumberLength(64).build())
            .build());
    private static final ObjectMapper WRITER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Json() {
    }

    /** Parses a JSON object into maps, lists, strings, numbers, booleans and nulls. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(byte[] bytes) throws IOException {
        Object v = READER.readValue(bytes, Object.class);
        if (!(v instanceof Map)) {
            throw new IOException("expected a JSON object, found " + (v == null ? "null" : v.getClass()
                    .getSimpleName()));
        }
        return (Map<String, Object>) v;
    }

    /** Writes a tree of maps, lists, numbers, strings, booleans, nulls and {@link KerasObject}s as JSON. */
    static byte[] write(Object tree) throws IOException {
        return WRITER.writeValueAsString(plain(tree)).getBytes(StandardCharsets.UTF_8);
    }

    /** The tree with every {@link KerasObject} serialized and every float written as its shortest decimal. */
    static Object plain(Object v) {
        if (v instanceof KerasObject k) {
            return serialize(k);
        }
        if (v instanceof Float f) {
            // 0.9f as 0.9, not 0.8999999761581421: Float.toString is the shortest decimal that reads back as f.
            return f.isNaN() || f.isInfinite() ? f.doubleValue() : Double.parseDouble(Float.toString(f));
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((key, value) -> out.put((String) key, plain(value)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) {
                out.add(plain(o));
            }
            return out;
        }
        return v;
    }

    /** Keras' {@code serialize_keras_object} of a Brisk object. */
    static Map<String, Object> serialize(KerasObject k) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("module", module(k));
        out.put("class_name", k.kerasClassName());
        out.put("config", plain(k.kerasConfig()));
        out.put("registered_name", null);
        return out;
    }

    private static String module(KerasObject k) {
        if (k instanceof Initializer) {
            return "keras.initializers";
        }
        if (k instanceof Regularizer) {
            return "keras.regularizers";
        }
        if (k instanceof dev.brisk.nn.Constraint) {
            return "keras.constraints";
        }
        if (k instanceof LearningRateSchedule) {
            return "keras.optimizers.schedules";
        }
        if (k instanceof DTypePolicy) {
            return "keras";
        }
        if (k instanceof Layer) {
            return "keras.layers";
        }
        if (k instanceof dev.brisk.losses.Loss) {
            return "keras.losses";
        }
        if (k instanceof dev.brisk.metrics.MetricSpec) {
            return "keras.metrics";
        }
        return "keras";
    }
}
