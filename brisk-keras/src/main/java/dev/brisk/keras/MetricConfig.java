package dev.brisk.keras;

import dev.brisk.io.KerasObject;
import dev.brisk.metrics.Auc;
import dev.brisk.metrics.ConfusionCount;
import dev.brisk.metrics.F1Score;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.metrics.Metrics;
import dev.brisk.metrics.RegressionError;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A compiled metric in a {@code .keras} file's {@code compile_config}: Keras' {@code "accuracy"} as that string
 * (whose form Keras, like Brisk, picks from the loss), every other metric as Keras writes a metric object
 * ({@code keras.metrics.<Class>} with its {@code get_config()}); read back from such an object or from the string
 * names {@code keras.metrics.get} accepts (class names in snake case, and {@code acc}, {@code mse}, {@code mae},
 * {@code mape}, {@code msle}), for every metric Brisk has. Options Brisk's metric does not have (a custom name,
 * several thresholds, multi-label AUC) are refused.
 */
final class MetricConfig {
    private MetricConfig() {
    }

    /** The serialized metric: a string for {@code "accuracy"}, a metric object otherwise. */
    static Object of(MetricSpec spec) {
        if (spec == Metrics.accuracy()) {
            return "accuracy";
        }
        if (!(spec instanceof KerasObject k)) {
            throw new ConfigError("a metric of the user's own (not made by dev.brisk.metrics.Metrics) cannot be "
                    + "recorded in a file");
        }
        return Json.serialize(k);
    }

    private static final Map<String, String> ALIASES = Map.of("acc", "accuracy", "mse", "mean_squared_error",
            "mae", "mean_absolute_error", "mape", "mean_absolute_percentage_error", "msle",
            "mean_squared_logarithmic_error");

    /** Makes the metric an entry of {@code compile_config}'s {@code metrics} describes. */
    @SuppressWarnings("unchecked")
    static MetricSpec make(Object value) {
        String key;
        ConfigView c;
        if (value instanceof String s) {
            key = s;
            c = new ConfigView("metric '" + s + "'", Map.of());
        } else if (value instanceof Map<?, ?> m) {
            ConfigView outer = new ConfigView("compile_config metric", (Map<String, Object>) m);
            key = outer.string("class_name", "");
            c = new ConfigView("metric '" + key + "'", outer.object("config"));
        } else {
            throw new ConfigError("compile_config: metric " + value + " is neither a name nor a metric object");
        }
        String name = WeightsLayout.snake(key);
        name = ALIASES.getOrDefault(name, name);
        c.requireAbsentOr("dtype", "float32");
        MetricSpec spec = switch (name) {
            case "accuracy" -> Metrics.accuracy();
            case "sparse_categorical_accuracy" -> Metrics.sparseCategoricalAccuracy();
            case "categorical_accuracy" -> Metrics.categoricalAccuracy();
            case "binary_accuracy" -> Metrics.binaryAccuracy(c.decimal("threshold", 0.5f));
            case "precision", "recall" -> {
                float t = threshold(c, "thresholds");
                int topK = c.integer("top_k", 0, 1, KerasRegistry.MAX_SIZE);
                int classId = c.integer("class_id", -1, 0, KerasRegistry.MAX_SIZE);
                yield name.equals("precision") ? Metrics.precision(t, classId, topK) : Metrics.recall(t, classId, topK);
            }
            case "auc" -> {
                c.requireAbsentOr("thresholds");
                c.requireAbsentOr("multi_label", false);
                c.requireAbsentOr("num_labels");
                c.requireAbsentOr("label_weights");
                yield Metrics.auc(c.integer("num_thresholds", 200, 2, KerasRegistry.MAX_SIZE),
                        named(c, "curve", "ROC", Auc.Curve.class),
                        named(c, "summation_method", "interpolation", Auc.Summation.class),
                        c.bool("from_logits", false));
            }
            case "true_positives", "false_positives", "true_negatives", "false_negatives" -> {
                c.requireAbsentOr("thresholds", 0.5, List.of(0.5));
                yield Metrics.confusionCount(ConfusionCount.Cell.valueOf(name.toUpperCase(Locale.ROOT)));
            }
            case "top_k_categorical_accuracy" -> Metrics.topKCategoricalAccuracy(c.integer("k", 5, 1,
                    KerasRegistry.MAX_SIZE));
            case "sparse_top_k_categorical_accuracy" -> {
                c.requireAbsentOr("from_sorted_ids", false);
                yield Metrics.sparseTopKCategoricalAccuracy(c.integer("k", 5, 1, KerasRegistry.MAX_SIZE));
            }
            case "f1_score" -> {
                if (c.raw("average") == null) {
                    throw c.error("average", "None (one score per class) is not supported: Brisk's F1Score is one "
                            + "number (micro, macro or weighted)");
                }
                F1Score.Average average = named(c, "average", "macro", F1Score.Average.class);
                yield c.raw("threshold") == null ? Metrics.f1Score(average)
                        : Metrics.f1Score(average, c.decimal("threshold", 0f));
            }
            case "mean_squared_error", "root_mean_squared_error", "mean_absolute_error",
                 "mean_absolute_percentage_error", "mean_squared_logarithmic_error" ->
                    Metrics.regressionError(RegressionError.Kind.valueOf(name.toUpperCase(Locale.ROOT)));
            case "r2_score" -> {
                c.requireAbsentOr("class_aggregation", "uniform_average");
                c.requireAbsentOr("num_regressors", 0);
                yield Metrics.r2Score();
            }
            default -> throw new ConfigError("compile_config: metric '" + key + "' is not one Brisk has");
        };
        // Keras' default name is Brisk's; another name would change the history's keys, so it is refused.
        if (c.has("name") && spec instanceof KerasObject k && !c.string("name", "").equals(
                k.kerasConfig().get("name"))) {
            throw c.error("name", "a metric named otherwise than Keras' default ('" + k.kerasConfig().get("name")
                    + "') is not supported");
        }
        return spec;
    }

    private static float threshold(ConfigView c, String key) {
        Object v = c.raw(key);
        if (v instanceof List<?> l) {
            if (l.size() != 1 || !(l.get(0) instanceof Number n)) {
                throw c.error(key, "Brisk's metric has one threshold, found " + v);
            }
            return n.floatValue();
        }
        return c.decimal(key, 0.5f);
    }

    private static <E extends Enum<E>> E named(ConfigView c, String key, String fallback, Class<E> type) {
        String v = c.string(key, fallback);
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(v)) {
                return e;
            }
        }
        throw c.error(key, "'" + v + "' is not one of " + java.util.Arrays.toString(type.getEnumConstants()));
    }
}
