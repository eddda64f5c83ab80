package dev.brisk.keras;

import dev.brisk.io.KerasObject;
import dev.brisk.losses.Loss;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.metrics.Metrics;
import dev.brisk.metrics.WeightedMetricSpec;
import dev.brisk.nn.Model;
import dev.brisk.optimizers.Adadelta;
import dev.brisk.optimizers.Adagrad;
import dev.brisk.optimizers.Adam;
import dev.brisk.optimizers.Adamax;
import dev.brisk.optimizers.LearningRateSchedule;
import dev.brisk.optimizers.Ftrl;
import dev.brisk.optimizers.Lion;
import dev.brisk.optimizers.Nadam;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.RmsProp;
import dev.brisk.optimizers.Sgd;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keras' {@code compile_config}: the optimizer (with its learning rate or schedule), the losses and the metrics,
 * written from a compiled model and made again on load from a fixed set of Brisk's classes.
 */
final class CompileConfig {
    private CompileConfig() {
    }

    /** The compile config of {@code m}, or null when it was never compiled. */
    static Map<String, Object> of(Model m) {
        if (m.optimizer() == null || m.compiledLosses() == null) {
            return null;
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("optimizer", optimizer(m.optimizer()));
        List<Loss> losses = m.compiledLosses();
        if (losses.size() == 1) {
            c.put("loss", LossConfig.of(losses.get(0)));
        } else {
            List<Object> all = new ArrayList<>();
            for (Loss l : losses) {
                all.add(LossConfig.of(l));
            }
            c.put("loss", all);
        }
        float[] lossWeights = m.compiledLossWeights();
        List<Object> weights = null;
        if (lossWeights != null) {
            weights = new ArrayList<>();
            for (float w : lossWeights) {
                weights.add((double) w);
            }
        }
        c.put("loss_weights", weights);
        List<Object> metrics = new ArrayList<>();
        List<Object> weighted = new ArrayList<>();
        boolean anyWeighted = false;
        if (m.compiledMetricsPerOutput() != null) {
            // Keras' list of lists: one metric list per output, and one weighted-metric list per output.
            for (List<MetricSpec> perOutput : m.compiledMetricsPerOutput()) {
                List<Object> each = new ArrayList<>();
                List<Object> eachWeighted = new ArrayList<>();
                anyWeighted |= split(perOutput, each, eachWeighted);
                metrics.add(each);
                weighted.add(eachWeighted);
            }
        } else {
            anyWeighted = split(m.compiledMetrics(), metrics, weighted);
        }
        c.put("metrics", metrics);
        c.put("weighted_metrics", anyWeighted ? weighted : null);
        c.put("run_eagerly", m.runsEagerly());
        c.put("steps_per_execution", 1);
        c.put("jit_compile", false);
        return c;
    }

    /**
     * Serializes {@code specs} into Keras' {@code metrics} ({@code plain}) and {@code weighted_metrics}
     * ({@code weighted}, the metrics {@code Metrics.weighted} wraps); true when there is a weighted one.
     */
    private static boolean split(List<MetricSpec> specs, List<Object> plain, List<Object> weighted) {
        boolean any = false;
        for (MetricSpec spec : specs) {
            if (spec instanceof WeightedMetricSpec w) {
                weighted.add(MetricConfig.of(w.inner()));
                any = true;
            } else {
                plain.add(MetricConfig.of(spec));
            }
        }
        return any;
    }

    static Map<String, Object> optimizer(Optimizer o) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("name", o.name());
        LearningRateSchedule schedule = o.schedule();
        if (schedule != null) {
            if (!(schedule instanceof KerasObject k)) {
                throw new ConfigError("the optimizer's learning-rate schedule is a lambda of the user's own, which a "
                        + "file cannot record; use LearningRateSchedule.exponentialDecay or cosineDecay");
            }
            config.put("learning_rate", k);
        } else {
            config.put("learning_rate", o.learningRate());
        }
        config.put("weight_decay", null);
        config.put("clipnorm", o.clipNormValue() > 0 ? o.clipNormValue() : null);
        config.put("global_clipnorm", o.globalClipNormValue() > 0 ? o.globalClipNormValue() : null);
        config.put("clipvalue", o.clipValueValue() > 0 ? o.clipValueValue() : null);
        config.put("use_ema", false);
        config.put("ema_momentum", 0.99f);
        config.put("ema_overwrite_frequency", null);
        config.put("loss_scale_factor", null);
        config.put("gradient_accumulation_steps", null);
        config.putAll(o.ownConfig());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("module", "keras.optimizers");
        out.put("class_name", switch (o) {
            case Adam a -> a.name().equals("adamw") ? "AdamW" : "Adam";
            case Sgd s -> "SGD";
            case RmsProp r -> "RMSprop";
            case Adagrad a -> "Adagrad";
            case Adadelta a -> "Adadelta";
            case Adamax a -> "Adamax";
            case Nadam n -> "Nadam";
            case Lion l -> "Lion";
            case Ftrl f -> "Ftrl";
            default -> throw new ConfigError("optimizer " + o.getClass().getName() + " is not one of Brisk's");
        });
        out.put("config", Json.plain(config));
        out.put("registered_name", null);
        return out;
    }

    /** Compiles {@code m} as {@code config} says. */
    static void compile(Model m, Map<String, Object> config) {
        ConfigView c = new ConfigView("compile_config", config);
        Optimizer opt = makeOptimizer(c.object("optimizer"));
        Object lossValue = c.raw("loss");
        List<Loss> losses = new ArrayList<>();
        if (lossValue instanceof List<?> l) {
            for (Object o : l) {
                losses.add(LossConfig.make(o));
            }
        } else {
            losses.add(LossConfig.make(lossValue));
        }
        Object weightsValue = c.raw("loss_weights");
        List<Float> lossWeights = null;
        if (weightsValue != null) {
            if (!(weightsValue instanceof List<?> wl) || wl.stream().anyMatch(o -> !(o instanceof Number))) {
                throw c.error("loss_weights", "a list of numbers, one per output, expected (Brisk does not read a"
                        + " dict here)");
            }
            lossWeights = new ArrayList<>();
            for (Object o : wl) {
                lossWeights.add(((Number) o).floatValue());
            }
        }
        List<Object> metricValues = c.raw("metrics") == null ? List.of() : c.list("metrics");
        List<Object> weightedValues = c.raw("weighted_metrics") == null ? List.of() : c.list("weighted_metrics");
        boolean perOutput = isPerOutput(metricValues);
        boolean weightedPerOutput = isPerOutput(weightedValues);
        if (perOutput || weightedPerOutput || lossWeights != null) {
            if (losses.size() == 1 && m.outputs().size() > 1) {
                losses = new ArrayList<>(java.util.Collections.nCopies(m.outputs().size(), losses.get(0)));
            }
            List<List<MetricSpec>> each = new ArrayList<>();
            for (int i = 0; i < losses.size(); i++) {
                List<MetricSpec> list = new ArrayList<>(metrics(forOutput(metricValues, perOutput, i)));
                for (MetricSpec w : metrics(forOutput(weightedValues, weightedPerOutput, i))) {
                    list.add(Metrics.weighted(w));
                }
                each.add(list);
            }
            m.compile(opt, losses, lossWeights, each);
        } else {
            List<MetricSpec> list = new ArrayList<>(metrics(metricValues));
            for (MetricSpec w : metrics(weightedValues)) {
                list.add(Metrics.weighted(w));
            }
            m.compile(opt, losses, list.toArray(new MetricSpec[0]));
        }
        if (c.bool("run_eagerly", false)) {
            m.runEagerly(true);
        }
    }

    /** Whether a metrics entry is Keras' list of lists, one per output. */
    private static boolean isPerOutput(List<Object> values) {
        return !values.isEmpty() && values.stream().allMatch(o -> o instanceof List<?>);
    }

    /** Output {@code i}'s metric entries: its list when given per output, else the shared list. */
    private static List<?> forOutput(List<Object> values, boolean perOutput, int i) {
        if (!perOutput) {
            return values;
        }
        return i < values.size() ? (List<?>) values.get(i) : List.of();
    }

    private static List<MetricSpec> metrics(List<?> values) {
        List<MetricSpec> metrics = new ArrayList<>();
        for (Object o : values) {
            metrics.add(MetricConfig.make(o));
        }
        return metrics;
    }

    private static Optimizer makeOptimizer(Map<String, Object> obj) {
        if (obj == null) {
            throw new ConfigError("compile_config: option 'optimizer' is missing");
        }
        ConfigView outer = new ConfigView("compile_config optimizer", obj);
        String cls = outer.string("class_name", "");
        ConfigView c = new ConfigView("optimizer '" + cls + "'", outer.object("config"));
        c.requireAbsentOr("use_ema", false);
        c.requireAbsentOr("loss_scale_factor");
        c.requireAbsentOr("gradient_accumulation_steps");
        LearningRateSchedule schedule = c.raw("learning_rate") instanceof Map<?, ?> ? schedule(c) : null;
        float lr = schedule == null ? c.decimal("learning_rate", 0.001f) : 0f;
        float wd = c.raw("weight_decay") == null ? 0f : c.decimal("weight_decay", 0f);
        Optimizer o = switch (cls) {
            case "Adam", "AdamW" -> {
                if (cls.equals("AdamW")) {
                    wd = c.decimal("weight_decay", 0.004f);
                } else {
                    c.requireAbsentOr("weight_decay", 0);
                }
                boolean amsgrad = c.bool("amsgrad", false);
                float b1 = c.decimal("beta_1", 0.9f);
                float b2 = c.decimal("beta_2", 0.999f);
                float eps = c.decimal("epsilon", 1e-7f);
                yield schedule != null ? new Adam(schedule, b1, b2, eps, wd, amsgrad)
                        : new Adam(lr, b1, b2, eps, wd, amsgrad);
            }
            case "SGD" -> {
                float mom = c.decimal("momentum", 0f);
                boolean nesterov = c.bool("nesterov", false);
                yield schedule != null ? new Sgd(schedule, mom, nesterov, wd) : new Sgd(lr, mom, nesterov, wd);
            }
            case "RMSprop" -> {
                float rho = c.decimal("rho", 0.9f);
                float mom = c.decimal("momentum", 0f);
                float eps = c.decimal("epsilon", 1e-7f);
                boolean centered = c.bool("centered", false);
                yield schedule != null ? new RmsProp(schedule, rho, mom, eps, centered, wd)
                        : new RmsProp(lr, rho, mom, eps, centered, wd);
            }
            case "Adagrad" -> {
                float start = c.decimal("initial_accumulator_value", 0.1f);
                float eps = c.decimal("epsilon", 1e-7f);
                yield schedule != null ? new Adagrad(schedule, start, eps, wd) : new Adagrad(lr, start, eps, wd);
            }
            case "Adadelta" -> {
                float rho = c.decimal("rho", 0.95f);
                float eps = c.decimal("epsilon", 1e-7f);
                yield schedule != null ? new Adadelta(schedule, rho, eps, wd) : new Adadelta(lr, rho, eps, wd);
            }
            case "Adamax", "Nadam" -> {
                float b1 = c.decimal("beta_1", 0.9f);
                float b2 = c.decimal("beta_2", 0.999f);
                float eps = c.decimal("epsilon", 1e-7f);
                if (cls.equals("Adamax")) {
                    yield schedule != null ? new Adamax(schedule, b1, b2, eps, wd) : new Adamax(lr, b1, b2, eps, wd);
                }
                yield schedule != null ? new Nadam(schedule, b1, b2, eps, wd) : new Nadam(lr, b1, b2, eps, wd);
            }
            case "Lion" -> {
                float b1 = c.decimal("beta_1", 0.9f);
                float b2 = c.decimal("beta_2", 0.99f);
                yield schedule != null ? new Lion(schedule, b1, b2, wd) : new Lion(lr, b1, b2, wd);
            }
            case "Ftrl" -> {
                float power = c.decimal("learning_rate_power", -0.5f);
                float start = c.decimal("initial_accumulator_value", 0.1f);
                float l1 = c.decimal("l1_regularization_strength", 0f);
                float l2 = c.decimal("l2_regularization_strength", 0f);
                float shrink = c.decimal("l2_shrinkage_regularization_strength", 0f);
                float beta = c.decimal("beta", 0f);
                yield schedule != null ? new Ftrl(schedule, power, start, l1, l2, shrink, beta, wd)
                        : new Ftrl(lr, power, start, l1, l2, shrink, beta, wd);
            }
            default -> throw new ConfigError("compile_config: unknown optimizer class '" + cls
                    + "' (Brisk has Adam, AdamW, SGD, RMSprop, Adagrad, Adadelta, Adamax, Nadam, Lion, Ftrl)");
        };
        try {
            if (c.raw("clipnorm") != null) {
                o.clipNorm(c.decimal("clipnorm", 0f));
            }
            if (c.raw("global_clipnorm") != null) {
                o.globalClipNorm(c.decimal("global_clipnorm", 0f));
            }
            if (c.raw("clipvalue") != null) {
                o.clipValue(c.decimal("clipvalue", 0f));
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigError("optimizer '" + cls + "': " + e.getMessage());
        }
        return o;
    }

    private static LearningRateSchedule schedule(ConfigView optimizer) {
        ConfigView outer = new ConfigView(optimizer.what() + " learning_rate", optimizer.object("learning_rate"));
        String cls = outer.string("class_name", "");
        ConfigView c = new ConfigView("learning-rate schedule '" + cls + "'", outer.object("config"));
        return switch (cls) {
            case "ExponentialDecay" -> LearningRateSchedule.exponentialDecay(c.decimal("initial_learning_rate", 0f),
                    positive(c, "decay_steps"), c.decimal("decay_rate", 0f), c.bool("staircase", false));
            case "CosineDecay" -> {
                Float target = c.raw("warmup_target") == null ? null : c.decimal("warmup_target", 0f);
                yield LearningRateSchedule.cosineDecay(c.decimal("initial_learning_rate", 0f),
                        positive(c, "decay_steps"), c.decimal("alpha", 0f), target,
                        target == null ? 0 : c.longValue("warmup_steps", 0));
            }
            case "PiecewiseConstantDecay" -> {
                List<Object> b = c.list("boundaries");
                List<Object> v = c.list("values");
                if (b == null || v == null || b.size() > KerasRegistry.MAX_SIZE || v.size() > KerasRegistry.MAX_SIZE) {
                    throw c.error("boundaries", "boundaries and values must be lists");
                }
                long[] boundaries = new long[b.size()];
                float[] values = new float[v.size()];
                for (int i = 0; i < boundaries.length; i++) {
                    boundaries[i] = number(c, "boundaries", b.get(i)).longValue();
                }
                for (int i = 0; i < values.length; i++) {
                    values[i] = number(c, "values", v.get(i)).floatValue();
                }
                yield LearningRateSchedule.piecewiseConstantDecay(boundaries, values);
            }
            case "PolynomialDecay" -> LearningRateSchedule.polynomialDecay(c.decimal("initial_learning_rate", 0f),
                    positive(c, "decay_steps"), c.decimal("end_learning_rate", 1e-4f), c.decimal("power", 1f),
                    c.bool("cycle", false));
            case "InverseTimeDecay" -> LearningRateSchedule.inverseTimeDecay(c.decimal("initial_learning_rate", 0f),
                    positive(c, "decay_steps"), c.decimal("decay_rate", 0f), c.bool("staircase", false));
            case "CosineDecayRestarts" -> LearningRateSchedule.cosineDecayRestarts(
                    c.decimal("initial_learning_rate", 0f), positive(c, "first_decay_steps"), c.decimal("t_mul", 2f),
                    c.decimal("m_mul", 1f), c.decimal("alpha", 0f));
            default -> throw new ConfigError("unknown learning-rate schedule class '" + cls
                    + "' (Brisk has ExponentialDecay, CosineDecay, PiecewiseConstantDecay, PolynomialDecay, "
                    + "InverseTimeDecay, CosineDecayRestarts)");
        };
    }

    private static Number number(ConfigView c, String key, Object value) {
        if (!(value instanceof Number n)) {
            throw c.error(key, "holds " + value + ", not a number");
        }
        return n;
    }

    private static long positive(ConfigView c, String key) {
        long v = c.longValue(key, 0);
        if (v <= 0) {
            throw c.error(key, "must be positive, found " + v);
        }
        return v;
    }
}
