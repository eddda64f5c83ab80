package dev.brisk.keras;

import dev.brisk.io.KerasObject;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.losses.Reduction;
import java.util.Map;
import java.util.TreeSet;

/**
 * A compiled loss in a {@code .keras} file's {@code compile_config}: written as Keras writes a loss object
 * ({@code keras.losses.<Class>} with its {@code get_config()}: name, reduction and options such as
 * {@code from_logits}, {@code label_smoothing} or Huber's {@code delta}), and read back from such an object or from
 * the name Keras' {@code compile(loss="...")} records, for every loss Brisk has, with any of Keras' reductions.
 */
final class LossConfig {
    private LossConfig() {
    }

    /** The serialized loss; a loss of the user's own (not one of {@link Losses}') cannot be recorded. */
    static Map<String, Object> of(Loss l) {
        if (!(l instanceof KerasObject k) || k.kerasClassName() == null) {
            throw new ConfigError("loss '" + l.name() + "' is not one of Brisk's built-in losses (dev.brisk.losses"
                    + ".Losses), so a file cannot record it");
        }
        return Json.serialize(k);
    }

    /** Keras' short names of losses ({@code keras.losses.get}); class names are read in snake case. */
    private static final Map<String, String> ALIASES = Map.of("mse", "mean_squared_error", "mae",
            "mean_absolute_error", "mape", "mean_absolute_percentage_error", "msle", "mean_squared_logarithmic_error",
            "huber_loss", "huber", "logcosh", "log_cosh", "kld", "kl_divergence");

    /** Makes the loss a {@code compile_config}'s {@code loss} entry (a name or a serialized loss) describes. */
    static Loss make(Object value) {
        if (value == null) {
            throw new ConfigError("compile_config: option 'loss' is missing");
        }
        String cls;
        ConfigView lc;
        if (value instanceof String s) {
            cls = s;
            lc = new ConfigView("loss '" + s + "'", Map.of());
        } else if (value instanceof Map<?, ?>) {
            @SuppressWarnings("unchecked")
            Map<String, Object> obj = (Map<String, Object>) value;
            ConfigView outer = new ConfigView("compile_config loss", obj);
            cls = outer.string("class_name", "");
            lc = new ConfigView("loss '" + cls + "'", outer.object("config"));
        } else {
            throw new ConfigError("compile_config: option 'loss' is not a loss: " + value);
        }
        Reduction reduction = reduction(lc, cls);
        lc.requireAbsentOr("dtype", "float32");
        lc.requireAbsentOr("ignore_class");
        lc.requireAbsentOr("axis", -1);
        boolean logits = lc.bool("from_logits", false);
        float smoothing = lc.decimal("label_smoothing", 0f);
        String name = WeightsLayout.snake(cls);
        name = ALIASES.getOrDefault(name, name);
        if (!name.endsWith("crossentropy")) {
            lc.requireAbsentOr("from_logits", false);
        }
        if (!name.equals("categorical_crossentropy") && !name.equals("binary_crossentropy")) {
            lc.requireAbsentOr("label_smoothing", 0);
        }
        if (!name.equals("huber")) {
            lc.requireAbsentOr("delta");
        }
        return base(name, cls, lc, logits, smoothing).withReduction(reduction);
    }

    /**
     * The {@code reduction} entry: absent means Keras' default, JSON null Keras' {@code None} (no reduction), and
     * anything but Keras' names is refused, naming the loss and the value.
     */
    private static Reduction reduction(ConfigView lc, String cls) {
        if (!lc.isNull("reduction") && !lc.has("reduction")) {
            return Reduction.SUM_OVER_BATCH_SIZE;
        }
        try {
            return Reduction.of(lc.string("reduction", null), cls);
        } catch (IllegalArgumentException e) {
            throw new ConfigError("compile_config " + e.getMessage());
        }
    }

    private static Loss base(String name, String cls, ConfigView lc, boolean logits, float smoothing) {
        return switch (name) {
            case "sparse_categorical_crossentropy" -> Losses.sparseCategoricalCrossentropy(logits);
            case "categorical_crossentropy" -> Losses.categoricalCrossentropy(logits, smoothing);
            case "binary_crossentropy" -> Losses.binaryCrossentropy(logits, smoothing);
            case "mean_squared_error" -> Losses.meanSquaredError();
            case "mean_absolute_error" -> Losses.meanAbsoluteError();
            case "mean_absolute_percentage_error" -> Losses.meanAbsolutePercentageError();
            case "mean_squared_logarithmic_error" -> Losses.meanSquaredLogarithmicError();
            case "huber" -> Losses.huber(lc.decimal("delta", 1f));
            case "log_cosh" -> Losses.logCosh();
            case "kl_divergence" -> Losses.klDivergence();
            case "poisson" -> Losses.poisson();
            case "hinge" -> Losses.hinge();
            case "squared_hinge" -> Losses.squaredHinge();
            case "categorical_hinge" -> Losses.categoricalHinge();
            case "cosine_similarity" -> Losses.cosineSimilarity();
            default -> throw new ConfigError("compile_config: unknown loss '" + cls + "' (Brisk has Keras' "
                    + "losses by class name, snake-case name or " + new TreeSet<>(ALIASES.keySet()) + ")");
        };
    }
}
