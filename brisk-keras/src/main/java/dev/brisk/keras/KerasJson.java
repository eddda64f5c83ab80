package dev.brisk.keras;

import dev.brisk.nn.Model;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model description in Keras 3's {@code config.json} schema, without weights: what Keras'
 * {@code model.to_json()} writes and {@code keras.models.model_from_json} reads, and the {@code config.json} entry
 * of a {@code .keras} file (the same serialization {@link KerasModels} uses, read by the same code). The model's
 * weights are initialized afresh.
 *
 * <pre>{@code
 * Model m = KerasJson.read(Path.of("model.json"));        // compiled when the file has a compile_config
 * if (m.optimizer() == null) {
 *     KerasJson.compile(m, "mean_squared_error", "Adam", 1e-3f, List.of());
 * }
 * }</pre>
 */
public final class KerasJson {
    /** The largest description read: far more than any real architecture needs. */
    static final long MAX_BYTES = 16L << 20;

    private KerasJson() {
    }

    /**
     * Makes the model a {@code config.json} file describes, from Brisk's built-in layer classes, compiled as its
     * {@code compile_config} says when it has one.
     *
     * @param file the JSON file
     * @return the model, with new weights
     * @throws IOException naming the file if it cannot be read or describes a model Brisk cannot make
     */
    public static Model read(Path file) throws IOException {
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException(file + ": a model description of " + Files.size(file) + " bytes is over the "
                    + MAX_BYTES + " bytes read");
        }
        try {
            return fromJson(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Keras' {@code model_from_json}: the model a JSON text in the {@code config.json} schema describes, compiled
     * when it has a {@code compile_config}.
     *
     * @param json the description
     * @return the model, with new weights
     * @throws IOException if the text is not JSON
     * @throws IllegalArgumentException naming the option if it describes a model Brisk cannot make
     */
    public static Model fromJson(String json) throws IOException {
        Map<String, Object> config = Json.parseObject(KerasModels.utf8(json));
        Model m;
        try {
            m = ModelConfig.build(config, KerasRegistry.builtIn());
            if (config.get("compile_config") instanceof Map<?, ?> cc) {
                @SuppressWarnings("unchecked")
                Map<String, Object> c = (Map<String, Object>) cc;
                CompileConfig.compile(m, c);
            }
        } catch (ConfigError e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return m;
    }

    /**
     * Compiles {@code model} from Keras names, through the same reader as a file's {@code compile_config}: a loss
     * ({@code "mean_squared_error"}, {@code "sparse_categorical_crossentropy"}, ...), an optimizer class
     * ({@code "Adam"}, {@code "SGD"}, {@code "RMSprop"}, {@code "AdamW"}) with its learning rate, and metric names.
     *
     * @param model the model
     * @param loss the loss's Keras name
     * @param optimizer the optimizer's Keras class name
     * @param learningRate the learning rate
     * @param metrics the metrics' Keras names ({@code "accuracy"}, ...)
     * @throws IllegalArgumentException naming what Brisk does not know
     */
    public static void compile(Model model, String loss, String optimizer, float learningRate,
                               List<String> metrics) {
        Map<String, Object> opt = new LinkedHashMap<>();
        opt.put("class_name", optimizer);
        opt.put("config", Map.of("learning_rate", (double) learningRate));
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("optimizer", opt);
        c.put("loss", loss);
        c.put("metrics", List.copyOf(metrics));
        try {
            CompileConfig.compile(model, c);
        } catch (ConfigError e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
