package dev.brisk.keras;

import dev.brisk.io.AtomicFiles;
import dev.brisk.nn.Model;
import dev.brisk.nn.WeightBudget;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.tensor.Tensor;
import io.jhdf.HdfFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whole-model files in Keras 3's {@code .keras} format: Keras' {@code model.save(path)} and
 * {@code keras.models.load_model(path)}.
 *
 * <pre>{@code
 * KerasModels.save(model, Path.of("m.keras"));
 * Model again = KerasModels.load(Path.of("m.keras"));   // predicts the same bits, trains on as the original
 * }</pre>
 *
 * <p>The archive holds {@code metadata.json}, {@code config.json} (the architecture and the compile settings in
 * Keras 3's serialization schema) and {@code model.weights.h5} (every layer's variables in Keras 3's layout, the
 * optimizer's iteration count, learning rate and slots, and Brisk's random state). Loading makes layers, losses,
 * optimizers and schedules from a fixed registry of Brisk's classes and those registered with
 * {@link KerasRegistry#with}; it never instantiates a class named by the file otherwise. Every part of a file is
 * checked before it is used (see {@link KerasArchive}); an error names the file and the entry.
 */
public final class KerasModels {
    /** The largest {@code model.weights.h5} read: what one Java byte array holds. */
    public static final long MAX_WEIGHTS_BYTES = Integer.MAX_VALUE - 16;

    private KerasModels() {
    }

    /**
     * Writes {@code model} (built, and compiled if its optimizer state should be kept) to {@code file}, replacing
     * it atomically: a failure leaves an existing file as it was.
     *
     * @param model the model; not trained by another thread meanwhile
     * @param file the file, conventionally ending in {@code .keras}
     * @throws IOException if the file cannot be written, or the model has parts a file cannot record (a lambda
     *     initializer, a loss of the user's own)
     */
    public static void save(Model model, Path file) throws IOException {
        byte[] config;
        try {
            config = Json.write(ModelConfig.of(model));
        } catch (ConfigError e) {
            throw new IOException("cannot save model '" + model.name() + "' to " + file + ": " + e.getMessage(), e);
        }
        byte[] weights = WeightsH5.write(model);
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("keras_version", "3");
        meta.put("date_saved", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd@HH:mm:ss")));
        meta.put("saved_by", "brisk");
        byte[] metadata = Json.write(meta);
        AtomicFiles.write(file, os -> KerasArchive.write(os, metadata, config, weights));
    }

    /**
     * Loads a model saved by {@link #save} (or by Keras 3, for the layers Brisk has), compiled as it was, with its
     * optimizer's state.
     *
     * @param file the {@code .keras} file
     * @return the model
     * @throws IOException naming the file and entry if the file cannot be read or describes a model Brisk cannot
     *     make
     */
    public static Model load(Path file) throws IOException {
        return load(file, KerasRegistry.builtIn());
    }

    /**
     * Loads a model whose layers may include the user's own classes, made by {@code registry}.
     *
     * @param file the {@code .keras} file
     * @param registry the layer classes the file may name
     * @return the model
     * @throws IOException naming the file and entry if the file cannot be read or describes a model Brisk cannot
     *     make
     */
    public static Model load(Path file, KerasRegistry registry) throws IOException {
        KerasArchive.Contents contents = KerasArchive.read(file, MAX_WEIGHTS_BYTES);
        String entry = KerasArchive.METADATA;
        try {
            Json.parseObject(contents.metadata());
            entry = KerasArchive.CONFIG;
            Map<String, Object> config = Json.parseObject(contents.config());
            // The file's weights bound the model: a config that declares more is refused before allocating.
            long budget = contents.weights().length / 4 + 16;
            Model m = WeightBudget.within(budget, () -> ModelConfig.build(config, registry));
            Object compile = config.get("compile_config");
            // Keras writes {} for a model never compiled (get_compile_config), Brisk before it wrote null.
            if (compile instanceof Map<?, ?> cc && !cc.isEmpty()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> c = (Map<String, Object>) cc;
                CompileConfig.compile(m, c);
            }
            entry = KerasArchive.WEIGHTS;
            WeightsH5.Loaded loaded;
            try (HdfFile h5 = HdfFile.fromBytes(contents.weights())) {
                loaded = WeightsH5.read(h5, m, true);
            }
            m.setWeights(loaded.weights());
            Optimizer opt = m.optimizer();
            if (opt != null && loaded.iterations() != null) {
                opt.setIterations(loaded.iterations());
                if (loaded.learningRate() != null) {
                    opt.setLearningRate(loaded.learningRate());
                }
                int i = 0;
                for (Variable slot : loaded.slots() == null ? List.<Variable>of()
                        : opt.stateVariables(KerasOrder.trainableVariables(m))) {
                    slot.assign(loaded.slots().get(i++));
                }
            }
            if (loaded.randomState() != null) {
                m.restoreRandomState(loaded.randomState());
            }
            return m;
        } catch (IOException e) {
            throw new KerasFileException(file, entry, e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new KerasFileException(file, entry, message(e), e);
        }
    }

    /**
     * Sets {@code model}'s weights from a {@code .keras} file of the same architecture (Keras'
     * {@code model.load_weights("m.keras")}): every weight is read and checked first, so a file that does not fit
     * leaves the model unchanged.
     *
     * @param model the model to set
     * @param file the {@code .keras} file
     * @throws IOException naming the file, the entry and the weight if the file cannot be read or does not fit
     */
    public static void loadWeights(Model model, Path file) throws IOException {
        KerasArchive.Contents contents = KerasArchive.read(file, MAX_WEIGHTS_BYTES);
        List<Tensor> weights;
        try (HdfFile h5 = HdfFile.fromBytes(contents.weights())) {
            weights = WeightsH5.read(h5, model, false).weights();
        } catch (RuntimeException e) {
            throw new KerasFileException(file, KerasArchive.WEIGHTS, message(e), e);
        }
        model.setWeights(weights);
    }

    private static String message(RuntimeException e) {
        if (e instanceof ConfigError || e instanceof IllegalArgumentException) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** Bytes of a string, for tests of hostile files. */
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
