package dev.brisk.keras;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Regularizer;
import dev.brisk.nn.layers.ActivationLayer;
import dev.brisk.nn.layers.Add;
import dev.brisk.nn.layers.Average;
import dev.brisk.nn.layers.AveragePooling1D;
import dev.brisk.nn.layers.AveragePooling2D;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Concatenate;
import dev.brisk.nn.layers.Conv1D;
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Conv2DTranspose;
import dev.brisk.nn.layers.Cropping2D;
import dev.brisk.nn.layers.DepthwiseConv2D;
import dev.brisk.nn.layers.Dot;
import dev.brisk.nn.layers.GaussianNoise;
import dev.brisk.nn.layers.GlobalMaxPooling2D;
import dev.brisk.nn.layers.SeparableConv2D;
import dev.brisk.nn.layers.SpatialDropout2D;
import dev.brisk.nn.layers.Dropout;
import dev.brisk.nn.layers.ELU;
import dev.brisk.nn.layers.Embedding;
import dev.brisk.nn.layers.Flatten;
import dev.brisk.nn.layers.GRU;
import dev.brisk.nn.layers.GlobalAveragePooling1D;
import dev.brisk.nn.layers.GlobalAveragePooling2D;
import dev.brisk.nn.layers.GlobalMaxPooling1D;
import dev.brisk.nn.layers.LSTM;
import dev.brisk.nn.layers.LayerNormalization;
import dev.brisk.nn.layers.LeakyReLU;
import dev.brisk.nn.layers.MaxPooling1D;
import dev.brisk.nn.layers.MaxPooling2D;
import dev.brisk.nn.layers.Maximum;
import dev.brisk.nn.layers.Minimum;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.nn.layers.Multiply;
import dev.brisk.nn.layers.PReLU;
import dev.brisk.nn.layers.Padding;
import dev.brisk.nn.layers.Permute;
import dev.brisk.nn.layers.ReLU;
import dev.brisk.nn.layers.RepeatVector;
import dev.brisk.nn.layers.Reshape;
import dev.brisk.nn.layers.SimpleRNN;
import dev.brisk.nn.layers.Softmax;
import dev.brisk.nn.layers.Subtract;
import dev.brisk.nn.layers.UpSampling2D;
import dev.brisk.nn.layers.ZeroPadding2D;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The layer classes a {@code .keras} file may name: a fixed table of Brisk's own layers, by Keras' class names,
 * plus the ones a user registers explicitly. Loading never looks a class up by a name taken from the file in any
 * other way (no reflection), so a file can only ask for these.
 */
public final class KerasRegistry {
    /** Sizes above this in a config are refused before anything is built (2^24: larger than any real layer). */
    static final int MAX_SIZE = 1 << 24;
    private static final KerasRegistry BUILT_IN = new KerasRegistry(builtIns());
    private final Map<String, LayerFactory> layers;

    private KerasRegistry(Map<String, LayerFactory> layers) {
        this.layers = Map.copyOf(layers);
    }

    /**
     * Brisk's own layers only.
     *
     * @return the built-in registry
     */
    public static KerasRegistry builtIn() {
        return BUILT_IN;
    }

    /**
     * A registry with Brisk's layers and {@code factory} for class {@code className} (a layer of the user's own;
     * its {@link Layer#kerasClassName()} and {@link Layer#kerasConfig()} are what a saved file records).
     *
     * @param className the class name as the file records it
     * @param factory makes the layer from its config
     * @return a new registry; this one is unchanged
     * @throws IllegalArgumentException if {@code className} is one of Brisk's own classes
     */
    public KerasRegistry with(String className, LayerFactory factory) {
        if (BUILT_IN.layers.containsKey(className)) {
            throw new IllegalArgumentException("'" + className + "' is one of Brisk's own layer classes");
        }
        Map<String, LayerFactory> m = new LinkedHashMap<>(layers);
        m.put(className, factory);
        return new KerasRegistry(m);
    }

    /**
     * The class names this registry can make.
     *
     * @return the class names
     */
    public Set<String> classNames() {
        return layers.keySet();
    }

    /** The factory for {@code className}, or an error that names it and what is known. */
    LayerFactory factory(String className, String what) {
        LayerFactory f = layers.get(className);
        if (f == null) {
            throw new ConfigError(what + ": unknown layer class '" + className + "' (Brisk knows "
                    + new java.util.TreeSet<>(layers.keySet()) + "; register a class of your own with "
                    + "KerasRegistry.with)");
        }
        return f;
    }

    private static Map<String, LayerFactory> builtIns() {
        Map<String, LayerFactory> m = new LinkedHashMap<>();
        m.put("Dense", c -> {
            c.requireAbsentOr("lora_rank");
            c.requireAbsentOr("quantization_config");
            Dense d = new Dense(c.requiredInt("units", 1, MAX_SIZE), activation(c, "activation"),
                    c.bool("use_bias", true), initializer(c, "kernel_initializer", Initializer.glorotUniform()),
                    initializer(c, "bias_initializer", Initializer.zeros()), regularizer(c, "kernel_regularizer"),
                    name(c));
            d.biasRegularizer(regularizer(c, "bias_regularizer")).kernelConstraint(constraint(c, "kernel_constraint"))
                    .biasConstraint(constraint(c, "bias_constraint"))
                    .activityRegularizer(regularizer(c, "activity_regularizer"));
            return d;
        });
        m.put("Conv2D", c -> {
            convChecks(c);
            int[] k = kernelSize(c, 2);
            int[] s = strides(c, 2, new int[] {1, 1});
            int[] d = dilation(c, 2);
            Conv2D conv = new Conv2D(c.requiredInt("filters", 1, MAX_SIZE), k[0], k[1], s[0], s[1], d[0], d[1],
                    padding(c, false), activation(c, "activation"), c.bool("use_bias", true),
                    initializer(c, "kernel_initializer", Initializer.glorotUniform()),
                    initializer(c, "bias_initializer", Initializer.zeros()), regularizer(c, "kernel_regularizer"),
                    name(c));
            conv.biasRegularizer(regularizer(c, "bias_regularizer"))
                    .kernelConstraint(constraint(c, "kernel_constraint"))
                    .biasConstraint(constraint(c, "bias_constraint"))
                    .activityRegularizer(regularizer(c, "activity_regularizer"));
            return conv;
        });
        m.put("Conv1D", c -> {
            convChecks(c);
            int[] k = c.ints("kernel_size", 1, 1, MAX_SIZE);
            int[] s = strides(c, 1, new int[] {1});
            int[] d = c.ints("dilation_rate", 1, 1, MAX_SIZE);
            if (k == null) {
                throw c.error("kernel_size", "missing");
            }
            Conv1D conv = new Conv1D(c.requiredInt("filters", 1, MAX_SIZE), k[0], s[0], padding(c, true),
                    d == null ? 1 : d[0], activation(c, "activation"), c.bool("use_bias", true),
                    initializer(c, "kernel_initializer", Initializer.glorotUniform()),
                    initializer(c, "bias_initializer", Initializer.zeros()), regularizer(c, "kernel_regularizer"),
                    name(c));
            conv.biasRegularizer(regularizer(c, "bias_regularizer"))
                    .kernelConstraint(constraint(c, "kernel_constraint"))
                    .biasConstraint(constraint(c, "bias_constraint"))
                    .activityRegularizer(regularizer(c, "activity_regularizer"));
            return conv;
        });
        m.put("MaxPooling2D", c -> {
            int[][] p = pool(c, 2);
            return new MaxPooling2D(p[0][0], p[0][1], p[1][0], p[1][1], padding(c, false), name(c));
        });
        m.put("AveragePooling2D", c -> {
            int[][] p = pool(c, 2);
            return new AveragePooling2D(p[0][0], p[0][1], p[1][0], p[1][1], padding(c, false), name(c));
        });
        m.put("MaxPooling1D", c -> {
            int[][] p = pool(c, 1);
            return new MaxPooling1D(p[0][0], p[1][0], padding(c, false), name(c));
        });
        m.put("AveragePooling1D", c -> {
            int[][] p = pool(c, 1);
            return new AveragePooling1D(p[0][0], p[1][0], padding(c, false), name(c));
        });
        m.put("GlobalAveragePooling2D", c -> {
            global(c);
            return new GlobalAveragePooling2D(name(c));
        });
        m.put("GlobalAveragePooling1D", c -> {
            global(c);
            return new GlobalAveragePooling1D(name(c));
        });
        m.put("GlobalMaxPooling1D", c -> {
            global(c);
            return new GlobalMaxPooling1D(name(c));
        });
        m.put("Flatten", c -> {
            channelsLast(c);
            return new Flatten(name(c));
        });
        m.put("Reshape", c -> {
            int[] target = c.ints("target_shape", 0, -1, MAX_SIZE);
            if (target == null) {
                throw c.error("target_shape", "missing");
            }
            return new Reshape(target, name(c));
        });
        m.put("Dropout", c -> {
            c.requireAbsentOr("noise_shape");
            Dropout d = new Dropout(c.decimal("rate", 0f), name(c));
            if (c.has("seed")) {
                d.setSeed(c.longValue("seed", 0));
            }
            return d;
        });
        m.put("BatchNormalization", c -> {
            c.requireAbsentOr("synchronized", false);
            c.requireAbsentOr("renorm", false);
            noRegularizersOrConstraints(c, "beta_regularizer", "gamma_regularizer", "beta_constraint",
                    "gamma_constraint");
            Object axis = c.raw("axis");
            if (axis instanceof java.util.List<?> l && l.size() != 1) {
                throw c.error("axis", "Brisk normalizes along one channel axis, found " + axis);
            }
            int a = axis instanceof java.util.List<?> ? c.ints("axis", 1, -8, 8)[0] : c.integer("axis", -1, -8, 8);
            return new BatchNormalization(a, c.decimal("momentum", 0.99f), c.decimal("epsilon", 1e-3f),
                    c.bool("center", true), c.bool("scale", true), name(c));
        });
        m.put("Activation", c -> new ActivationLayer(activation(c, "activation"), name(c)));
        m.put("Add", c -> new Add(name(c)));
        m.put("Multiply", c -> new Multiply(name(c)));
        m.put("Subtract", c -> new Subtract(name(c)));
        m.put("Average", c -> new Average(name(c)));
        m.put("Maximum", c -> new Maximum(name(c)));
        m.put("Minimum", c -> new Minimum(name(c)));
        m.put("ReLU", c -> new ReLU(c.raw("max_value") == null ? null : c.decimal("max_value", 0f),
                c.decimal("negative_slope", 0f), c.decimal("threshold", 0f), name(c)));
        m.put("LeakyReLU", c -> new LeakyReLU(c.decimal("negative_slope", LeakyReLU.DEFAULT_NEGATIVE_SLOPE),
                name(c)));
        m.put("PReLU", c -> {
            noRegularizersOrConstraints(c, "alpha_regularizer", "alpha_constraint");
            Initializer init = initializer(c, "alpha_initializer", Initializer.zeros());
            if (!(init instanceof dev.brisk.io.KerasObject k && k.kerasClassName().equals("Zeros"))) {
                throw c.error("alpha_initializer", "is not supported (Brisk's PReLU starts its slopes at zero)");
            }
            Object shared = c.raw("shared_axes");
            int[] axes = shared == null ? new int[0]
                    : shared instanceof Number n ? new int[] {n.intValue()} : c.ints("shared_axes", 0, 1, 8);
            return new PReLU(axes, name(c));
        });
        m.put("ELU", c -> new ELU(c.decimal("alpha", 1f), name(c)));
        m.put("Softmax", c -> {
            Object axis = c.raw("axis");
            if (axis instanceof java.util.List<?> l && l.size() != 1) {
                throw c.error("axis", "softmax over several axes is not supported");
            }
            int a = axis instanceof java.util.List<?> l ? ((Number) l.get(0)).intValue() : c.integer("axis", -1, -8, 8);
            return new Softmax(a, name(c));
        });
        m.put("Permute", c -> {
            int[] dims = c.ints("dims", 0, 1, 8);
            if (dims == null) {
                throw c.error("dims", "missing");
            }
            return new Permute(dims, name(c));
        });
        m.put("RepeatVector", c -> new RepeatVector(c.requiredInt("n", 1, MAX_SIZE), name(c)));
        m.put("UpSampling2D", c -> {
            channelsLast(c);
            c.requireAbsentOr("interpolation", "nearest");
            int[] size = c.ints("size", 2, 1, MAX_SIZE);
            return new UpSampling2D(size == null ? 2 : size[0], size == null ? 2 : size[1], name(c));
        });
        m.put("ZeroPadding2D", c -> {
            channelsLast(c);
            int[] p = pairsOfPairs(c, "padding", 1);
            return new ZeroPadding2D(p[0], p[1], p[2], p[3], name(c));
        });
        m.put("Concatenate", c -> new Concatenate(c.integer("axis", -1, -8, 8), name(c)));
        m.put("LayerNormalization", c -> {
            c.requireAbsentOr("rms_scaling", false);
            noRegularizersOrConstraints(c, "beta_regularizer", "gamma_regularizer", "beta_constraint",
                    "gamma_constraint");
            Object axis = c.raw("axis");
            if (axis instanceof java.util.List<?> l && l.size() != 1) {
                throw c.error("axis", "Brisk normalizes over one axis, found " + axis);
            }
            int a = axis instanceof java.util.List<?> ? c.ints("axis", 1, -8, 8)[0] : c.integer("axis", -1, -8, 8);
            return new LayerNormalization(a, c.decimal("epsilon", 1e-3f), c.bool("center", true),
                    c.bool("scale", true), name(c));
        });
        m.put("Embedding", c -> {
            noRegularizersOrConstraints(c, "embeddings_regularizer", "activity_regularizer",
                    "embeddings_constraint");
            c.requireAbsentOr("lora_rank");
            c.requireAbsentOr("quantization_config");
            c.requireAbsentOr("sparse", false);
            return new Embedding(c.requiredInt("input_dim", 1, MAX_SIZE), c.requiredInt("output_dim", 1, MAX_SIZE),
                    initializer(c, "embeddings_initializer", Initializer.randomUniform(-0.05f, 0.05f)),
                    c.bool("mask_zero", false), name(c));
        });
        m.put("MultiHeadAttention", c -> {
            c.requireAbsentOr("output_shape");
            c.requireAbsentOr("attention_axes");
            c.requireAbsentOr("use_gate", false);        // Keras 3.14+: a gating projection Brisk does not have
            c.requireAbsentOr("sliding_window");
            noRegularizersOrConstraints(c, "kernel_regularizer", "bias_regularizer", "activity_regularizer",
                    "kernel_constraint", "bias_constraint");
            int keyDim = c.requiredInt("key_dim", 1, MAX_SIZE);
            // use_causal_mask and attention_mask_input: Keras' call arguments, put here from the layer's calls by
            // AttentionCalls before the layer is made.
            MultiHeadAttention a = new MultiHeadAttention(c.requiredInt("num_heads", 1, MAX_SIZE), keyDim,
                    c.integer("value_dim", keyDim, 1, MAX_SIZE), c.decimal("dropout", 0f), c.bool("use_bias", true),
                    c.bool("use_causal_mask", false), c.bool("attention_mask_input", false), name(c));
            if (c.has("seed")) {
                a.setSeed(c.longValue("seed", 0));
            }
            return a;
        });
        m.put("SimpleRNN", c -> {
            recurrentChecks(c, false);
            return new SimpleRNN(c.requiredInt("units", 1, MAX_SIZE), c.bool("return_sequences", false),
                    c.bool("go_backwards", false), c.bool("return_state", false), name(c));
        });
        m.put("LSTM", c -> {
            recurrentChecks(c, true);
            c.requireAbsentOr("unit_forget_bias", true);
            return new LSTM(c.requiredInt("units", 1, MAX_SIZE), c.bool("return_sequences", false),
                    c.bool("go_backwards", false), c.bool("return_state", false), name(c));
        });
        m.put("GRU", c -> {
            recurrentChecks(c, true);
            c.requireAbsentOr("reset_after", true);
            return new GRU(c.requiredInt("units", 1, MAX_SIZE), c.bool("return_sequences", false),
                    c.bool("go_backwards", false), c.bool("return_state", false), name(c));
        });
        convolutionsAndShapes(m);
        AugmentationLayers.register(m);
        return m;
    }

    /** The depthwise, separable and transposed convolutions, cropping, Dot, GaussianNoise and SpatialDropout2D. */
    private static void convolutionsAndShapes(Map<String, LayerFactory> m) {
        m.put("DepthwiseConv2D", c -> {
            channelsLast(c);
            int[] k = kernelSize(c, 2);
            int[] s = strides(c, 2, new int[] {1, 1});
            int[] d = dilation(c, 2);
            DepthwiseConv2D layer = new DepthwiseConv2D(k[0], k[1], s[0], s[1], d[0], d[1],
                    c.integer("depth_multiplier", 1, 1, MAX_SIZE), padding(c, false), activation(c, "activation"),
                    c.bool("use_bias", true), initializer(c, "depthwise_initializer", Initializer.glorotUniform()),
                    initializer(c, "bias_initializer", Initializer.zeros()), regularizer(c, "depthwise_regularizer"),
                    name(c));
            layer.biasRegularizer(regularizer(c, "bias_regularizer"))
                    .depthwiseConstraint(constraint(c, "depthwise_constraint"))
                    .biasConstraint(constraint(c, "bias_constraint"))
                    .activityRegularizer(regularizer(c, "activity_regularizer"));
            return layer;
        });
        m.put("SeparableConv2D", c -> {
            channelsLast(c);
            int[] k = kernelSize(c, 2);
            int[] s = strides(c, 2, new int[] {1, 1});
            int[] d = dilation(c, 2);
            SeparableConv2D layer = new SeparableConv2D(c.requiredInt("filters", 1, MAX_SIZE), k[0], k[1], s[0], s[1], d[0], d[1],
                    c.integer("depth_multiplier", 1, 1, MAX_SIZE), padding(c, false), activation(c, "activation"),
                    c.bool("use_bias", true), initializer(c, "depthwise_initializer", Initializer.glorotUniform()),
                    initializer(c, "pointwise_initializer", Initializer.glorotUniform()),
                    initializer(c, "bias_initializer", Initializer.zeros()), name(c));
            layer.depthwiseRegularizer(regularizer(c, "depthwise_regularizer"))
                    .pointwiseRegularizer(regularizer(c, "pointwise_regularizer"))
                    .biasRegularizer(regularizer(c, "bias_regularizer"))
                    .depthwiseConstraint(constraint(c, "depthwise_constraint"))
                    .pointwiseConstraint(constraint(c, "pointwise_constraint"))
                    .biasConstraint(constraint(c, "bias_constraint"))
                    .activityRegularizer(regularizer(c, "activity_regularizer"));
            return layer;
        });
        m.put("Conv2DTranspose", c -> {
            channelsLast(c);
            c.requireAbsentOr("output_padding");
            int[] d = dilation(c, 2);
            if (d[0] != 1 || d[1] != 1) {
                throw c.error("dilation_rate", "Brisk's Conv2DTranspose has no dilation, found "
                        + java.util.Arrays.toString(d));
            }
            int[] k = kernelSize(c, 2);
            int[] s = strides(c, 2, new int[] {1, 1});
            Conv2DTranspose layer = new Conv2DTranspose(c.requiredInt("filters", 1, MAX_SIZE), k[0], k[1], s[0], s[1],
                    padding(c, false), activation(c, "activation"), c.bool("use_bias", true),
                    initializer(c, "kernel_initializer", Initializer.glorotUniform()),
                    initializer(c, "bias_initializer", Initializer.zeros()), regularizer(c, "kernel_regularizer"),
                    name(c));
            layer.biasRegularizer(regularizer(c, "bias_regularizer"))
                    .kernelConstraint(constraint(c, "kernel_constraint"))
                    .biasConstraint(constraint(c, "bias_constraint"))
                    .activityRegularizer(regularizer(c, "activity_regularizer"));
            return layer;
        });
        m.put("GlobalMaxPooling2D", c -> {
            global(c);
            return new GlobalMaxPooling2D(name(c));
        });
        m.put("Cropping2D", c -> {
            channelsLast(c);
            int[] p = pairsOfPairs(c, "cropping", 0);
            return new Cropping2D(p[0], p[1], p[2], p[3], name(c));
        });
        m.put("Dot", c -> {
            Object axes = c.raw("axes");
            if (axes == null) {
                throw c.error("axes", "missing");
            }
            int[] a = c.ints("axes", 2, -8, 8);
            return new Dot(a[0], a[1], c.bool("normalize", false), name(c));
        });
        m.put("GaussianNoise", c -> {
            GaussianNoise n = new GaussianNoise(c.decimal("stddev", 0f), name(c));
            if (c.has("seed") && c.raw("seed") != null) {
                n.setSeed(c.longValue("seed", 0));
            }
            return n;
        });
        m.put("SpatialDropout2D", c -> {
            channelsLast(c);
            SpatialDropout2D d = new SpatialDropout2D(c.decimal("rate", 0f), name(c));
            if (c.has("seed") && c.raw("seed") != null) {
                d.setSeed(c.longValue("seed", 0));
            }
            return d;
        });
    }

    private static int[] kernelSize(ConfigView c, int rank) {
        int[] k = c.ints("kernel_size", rank, 1, MAX_SIZE);
        if (k == null) {
            throw c.error("kernel_size", "missing");
        }
        return k;
    }

    private static int[] dilation(ConfigView c, int rank) {
        int[] d = c.ints("dilation_rate", rank, 1, MAX_SIZE);
        return d == null ? new int[] {1, 1} : d;
    }

    static String name(ConfigView c) {
        String n = c.string("name", null);
        if (n == null || n.isEmpty()) {
            throw c.error("name", "missing");
        }
        return n;
    }

    private static void noRegularizersOrConstraints(ConfigView c, String... keys) {
        for (String k : keys) {
            c.requireAbsentOr(k);
        }
    }

    /**
     * Keras' ZeroPadding2D padding and Cropping2D cropping: an int, a pair (rows, cols) or a pair of pairs; as top,
     * bottom, left, right ({@code fallback} on every side when absent).
     */
    private static int[] pairsOfPairs(ConfigView c, String key, int fallback) {
        Object v = c.raw(key);
        if (v == null) {
            return new int[] {fallback, fallback, fallback, fallback};
        }
        if (v instanceof Number n) {
            int p = n.intValue();
            return new int[] {p, p, p, p};
        }
        if (v instanceof java.util.List<?> l && l.size() == 2) {
            int[] out = new int[4];
            for (int i = 0; i < 2; i++) {
                Object e = l.get(i);
                if (e instanceof Number n) {
                    out[2 * i] = n.intValue();
                    out[2 * i + 1] = n.intValue();
                } else if (e instanceof java.util.List<?> pair && pair.size() == 2
                        && pair.get(0) instanceof Number a && pair.get(1) instanceof Number b) {
                    out[2 * i] = a.intValue();
                    out[2 * i + 1] = b.intValue();
                } else {
                    throw c.error(key, "must be an int, two ints or two pairs of ints, found " + v);
                }
            }
            for (int p : out) {
                if (p < 0 || p > MAX_SIZE) {
                    throw c.error(key, "out of range: " + v);
                }
            }
            return out;
        }
        throw c.error(key, "must be an int, two ints or two pairs of ints, found " + v);
    }

    private static void channelsLast(ConfigView c) {
        c.requireAbsentOr("data_format", "channels_last");
    }

    private static void global(ConfigView c) {
        channelsLast(c);
        c.requireAbsentOr("keepdims", false);
    }

    private static void convChecks(ConfigView c) {
        channelsLast(c);
        c.requireAbsentOr("groups", 1);
        c.requireAbsentOr("lora_rank");
    }

    private static void recurrentChecks(ConfigView c, boolean gated) {
        c.requireAbsentOr("activation", "tanh");
        if (gated) {
            c.requireAbsentOr("recurrent_activation", "sigmoid");
        }
        c.requireAbsentOr("use_bias", true);
        c.requireAbsentOr("dropout", 0);
        c.requireAbsentOr("recurrent_dropout", 0);
        c.requireAbsentOr("stateful", false);
        c.requireAbsentOr("unroll", false);
        c.requireAbsentOr("zero_output_for_mask", false);  // Brisk's masked steps keep the last output, as false
        noRegularizersOrConstraints(c, "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
                "activity_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint");
    }

    private static int[] strides(ConfigView c, int rank, int[] fallback) {
        int[] s = c.ints("strides", rank, 1, MAX_SIZE);
        return s == null ? fallback : s;
    }

    private static int[][] pool(ConfigView c, int rank) {
        channelsLast(c);
        int[] p = c.ints("pool_size", rank, 1, MAX_SIZE);
        if (p == null) {
            throw c.error("pool_size", "missing");
        }
        int[] s = c.ints("strides", rank, 1, MAX_SIZE);
        return new int[][] {p, s == null ? p : s};
    }

    private static Padding padding(ConfigView c, boolean causalAllowed) {
        String p = c.string("padding", "valid");
        return switch (p) {
            case "valid" -> Padding.VALID;
            case "same" -> Padding.SAME;
            case "causal" -> {
                if (!causalAllowed) {
                    throw c.error("padding", "'causal' is only for Conv1D");
                }
                yield Padding.CAUSAL;
            }
            default -> throw c.error("padding", "expected 'valid' or 'same', found '" + p + "'");
        };
    }

    static Activation activation(ConfigView c, String key) {
        Object v = c.raw(key);
        if (v == null) {
            return Activation.LINEAR;
        }
        if (!(v instanceof String s)) {
            throw c.error(key, "expected an activation name, found " + v);
        }
        for (Activation a : Activation.values()) {
            if (a.kerasName().equals(s)) {
                return a;
            }
        }
        throw c.error(key, "activation '" + s + "' is not one of Brisk's "
                + java.util.Arrays.stream(Activation.values()).map(Activation::kerasName).toList());
    }

    static Initializer initializer(ConfigView c, String key, Initializer fallback) {
        Object v = c.raw(key);
        if (v == null) {
            return fallback;
        }
        Named named = named(c, key, v);
        String cls = named.cls();
        ConfigView ic = named.config();
        // Keras accepts both "GlorotUniform" and "glorot_uniform". A seed fixes the initial values (a model made
        // from a config alone, to be trained, draws what Keras' seeded initializer would draw from that seed).
        Initializer init = switch (cls) {
            case "GlorotUniform", "glorot_uniform" -> Initializer.glorotUniform();
            case "GlorotNormal", "glorot_normal" -> Initializer.glorotNormal();
            case "HeNormal", "he_normal" -> Initializer.heNormal();
            case "HeUniform", "he_uniform" -> Initializer.heUniform();
            case "LecunNormal", "lecun_normal" -> Initializer.lecunNormal();
            case "LecunUniform", "lecun_uniform" -> Initializer.lecunUniform();
            case "Zeros", "zeros" -> Initializer.zeros();
            case "Ones", "ones" -> Initializer.ones();
            case "Constant", "constant" -> Initializer.constant(ic.decimal("value", 0f));
            case "Orthogonal", "orthogonal" -> Initializer.orthogonal(ic.decimal("gain", 1f));
            case "RandomUniform", "random_uniform" -> Initializer.randomUniform(ic.decimal("minval", -0.05f),
                    ic.decimal("maxval", 0.05f));
            case "RandomNormal", "random_normal" -> Initializer.randomNormal(ic.decimal("mean", 0f),
                    ic.decimal("stddev", 0.05f));
            case "TruncatedNormal", "truncated_normal" -> Initializer.truncatedNormal(ic.decimal("mean", 0f),
                    ic.decimal("stddev", 0.05f));
            case "VarianceScaling", "variance_scaling" -> {
                try {
                    yield Initializer.varianceScaling(ic.decimal("scale", 1f), ic.string("mode", "fan_in"),
                            ic.string("distribution", "truncated_normal"));
                } catch (IllegalArgumentException e) {
                    throw c.error(key, e.getMessage());
                }
            }
            default -> throw c.error(key, "unknown initializer class '" + cls + "'");
        };
        if (ic.raw("seed") != null) {
            init = init.seeded(ic.longValue("seed", 0));
        }
        return init;
    }

    static Regularizer regularizer(ConfigView c, String key) {
        Object v = c.raw(key);
        if (v == null) {
            return null;
        }
        Named named = named(c, key, v);
        String cls = named.cls();
        ConfigView rc = named.config();
        return switch (cls) {
            case "L2", "l2" -> Regularizer.l2(rc.decimal("l2", 0.01f));
            case "L1", "l1" -> Regularizer.l1(rc.decimal("l1", 0.01f));
            case "L1L2", "l1_l2" -> Regularizer.l1l2(rc.decimal("l1", 0f), rc.decimal("l2", 0f));
            default -> throw c.error(key, "regularizer class '" + cls + "' is not supported (Brisk has L1, L2, "
                    + "L1L2)");
        };
    }

    /** Keras' constraints (a config object, or a name as Keras accepts): MaxNorm, NonNeg, UnitNorm. */
    static Constraint constraint(ConfigView c, String key) {
        Object v = c.raw(key);
        if (v == null) {
            return null;
        }
        Named named = named(c, key, v);
        String cls = named.cls();
        ConfigView cc = named.config();
        try {
            return switch (cls) {
                case "MaxNorm", "max_norm" -> Constraint.maxNorm(cc.decimal("max_value", 2f), axes(cc));
                case "NonNeg", "non_neg" -> Constraint.nonNeg();
                case "UnitNorm", "unit_norm" -> Constraint.unitNorm(axes(cc));
                default -> throw c.error(key, "constraint class '" + cls + "' is not supported (Brisk has MaxNorm, "
                        + "NonNeg, UnitNorm)");
            };
        } catch (IllegalArgumentException e) {
            throw c.error(key, e.getMessage());
        }
    }

    /** A constraint's {@code axis}: an int or a list of ints, 0 when absent (Keras' default). */
    private static int[] axes(ConfigView cc) {
        Object a = cc.raw("axis");
        if (a == null) {
            return new int[] {0};
        }
        if (a instanceof Number n) {
            return new int[] {n.intValue()};
        }
        if (a instanceof java.util.List<?> list && list.size() <= 8) {
            int[] out = new int[list.size()];
            for (int i = 0; i < out.length; i++) {
                if (!(list.get(i) instanceof Number n)) {
                    throw cc.error("axis", "expected integers, found " + list);
                }
                out[i] = n.intValue();
            }
            return out;
        }
        throw cc.error("axis", "expected an integer or a list of integers, found " + a);
    }

    /** A Keras object named by its class and config, or by a name alone (Keras accepts "glorot_uniform"). */
    private record Named(String cls, ConfigView config) {
    }

    private static Named named(ConfigView c, String key, Object v) {
        if (v instanceof String s) {
            return new Named(s, new ConfigView(c.what() + " " + key, Map.of()));
        }
        Map<String, Object> obj = c.object(key);
        String cls = new ConfigView(c.what() + " " + key, obj).string("class_name", "");
        return new Named(cls, new ConfigView(c.what() + " " + key + " (" + cls + ")", new ConfigView(c.what(), obj)
                .object("config")));
    }
}
