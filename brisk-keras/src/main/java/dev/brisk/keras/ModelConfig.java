package dev.brisk.keras;

import dev.brisk.nn.InputLayer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's architecture as Keras 3's {@code config.json} ({@code serialize_keras_object} of the model): a
 * {@code Sequential} with its layer list, or a {@code Functional} model whose layers each list their calls
 * ({@code inbound_nodes}) by {@code keras_history} ({@code [layer name, call index, 0]}); and back.
 */
final class ModelConfig {
    private ModelConfig() {
    }

    // ---- writing ----

    /** The whole serialized model, {@code compile_config} included. */
    static Map<String, Object> of(Model m) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (m.inputs().isEmpty()) {
            throw new ConfigError("model '" + m.name() + "' is not built yet (call it on data, or give it an input "
                    + "layer), so it has no weights to save");
        }
        for (Layer l : m.layers()) {
            if (l instanceof dev.brisk.nn.layers.Lambda lambda) {
                throw new ConfigError(lambda.unsaveable());
            }
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("name", m.name());
        config.put("trainable", m.isTrainable());
        if (m.functional()) {
            out.put("module", "keras.src.models.functional");
            out.put("class_name", "Functional");
            functional(m, config);
        } else {
            out.put("module", "keras");
            out.put("class_name", "Sequential");
            config.put("dtype", dev.brisk.nn.DTypePolicy.FLOAT32);
            List<Object> layers = new ArrayList<>();
            for (Layer l : m.layers()) {
                layers.add(layer(l, false));
            }
            config.put("layers", layers);
            config.put("build_input_shape", batchShape(m.inputs().get(0).shape()));
        }
        out.put("config", Json.plain(config));
        out.put("registered_name", m.functional() ? "Functional" : null);
        Map<String, Object> build = new LinkedHashMap<>();
        build.put("input_shape", m.functional() ? null : batchShape(m.inputs().get(0).shape()));
        out.put("build_config", build);
        Map<String, Object> compile = CompileConfig.of(m);
        out.put("compile_config", compile == null ? Map.of() : compile);  // Keras' get_compile_config: {} if none
        return out;
    }

    private static void functional(Model m, Map<String, Object> config) {
        // Each call of a layer is one of its nodes, numbered in call order (a shared layer has several).
        Map<SymbolicTensor, Integer> nodeIndex = new IdentityHashMap<>();
        Map<Layer, List<SymbolicTensor>> callsOf = new IdentityHashMap<>();
        for (SymbolicTensor in : m.inputs()) {
            nodeIndex.put(in, 0);
        }
        for (SymbolicTensor t : m.layerCalls()) {
            if (t.isOutputOfSeveral()) {
                continue; // an output of a layer of several outputs: a tensor index of its call, not a call
            }
            List<SymbolicTensor> calls = callsOf.computeIfAbsent(t.layer(), k -> new ArrayList<>());
            nodeIndex.put(t, calls.size());
            calls.add(t);
        }
        // Keras lists the layers in its own order, which the weights file's numbering follows (KerasOrder).
        List<Object> layers = new ArrayList<>();
        for (Layer l : KerasOrder.layers(m)) {
            Map<String, Object> s = layer(l, true);
            List<Object> nodes = new ArrayList<>();
            for (SymbolicTensor call : callsOf.getOrDefault(l, List.of())) {
                List<Object> args = new ArrayList<>();
                for (SymbolicTensor in : call.inputs()) {
                    args.add(kerasTensor(in, nodeIndex));
                }
                if (l instanceof MultiHeadAttention mha) {
                    nodes.add(AttentionCalls.node(mha, args));
                    continue;
                }
                Map<String, Object> node = new LinkedHashMap<>();
                Map<String, Object> kwargs = new LinkedHashMap<>();
                if (takesInitialState(l) && args.size() > 1) {
                    // Keras calls a recurrent layer as layer(x, initial_state=[h, (c)]).
                    kwargs.put("initial_state", new ArrayList<>(args.subList(1, args.size())));
                    args = List.of(args.get(0));
                }
                // Keras passes a merge layer's inputs as one list argument, a single input as itself.
                node.put("args", args.size() == 1 ? args : List.of(args));
                node.put("kwargs", kwargs);
                nodes.add(node);
            }
            s.put("name", l.name());
            s.put("inbound_nodes", nodes);
            layers.add(s);
        }
        config.put("layers", layers);
        config.put("input_layers", history(m.inputs(), nodeIndex));
        config.put("output_layers", history(m.outputs(), nodeIndex));
    }

    private static List<Object> history(List<SymbolicTensor> ts, Map<SymbolicTensor, Integer> nodeIndex) {
        List<Object> out = new ArrayList<>();
        for (SymbolicTensor t : ts) {
            out.add(List.of(t.layer().name(), nodeIndex.get(KerasOrder.call(t)), t.outputIndex()));
        }
        return out;
    }

    private static Map<String, Object> kerasTensor(SymbolicTensor t, Map<SymbolicTensor, Integer> nodeIndex) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("shape", batchShape(t.shape()));
        config.put("dtype", t.layer() instanceof InputLayer in && in.dtype() == DType.INT32 ? "int32" : "float32");
        config.put("keras_history", List.of(t.layer().name(), nodeIndex.get(KerasOrder.call(t)), t.outputIndex()));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("class_name", "__keras_tensor__");
        out.put("config", config);
        return out;
    }

    /** Whether Keras calls the layer with its further inputs as {@code initial_state} (recurrent layers). */
    private static boolean takesInitialState(Layer l) {
        return l instanceof dev.brisk.nn.layers.Recurrent || l instanceof dev.brisk.nn.layers.Bidirectional;
    }

    /** A layer as Keras serializes it, with its {@code build_config} (and a wrapper's wrapped layers). */
    static Map<String, Object> layer(Layer l, boolean functional) {
        Map<String, Object> s = Json.serialize(l);
        Wrappers.addConfig(l, s);
        if (!(l instanceof InputLayer) && l.builtInputShapes() != null) {
            List<Shape> shapes = l.builtInputShapes();
            Map<String, Object> build = new LinkedHashMap<>();
            if (l instanceof MultiHeadAttention mha) {
                build = AttentionCalls.buildConfig(mha, shapes.stream().map(ModelConfig::batchShape).toList());
            } else if (shapes.size() == 1) {
                build.put("input_shape", batchShape(shapes.get(0)));
            } else {
                List<Object> all = new ArrayList<>();
                for (Shape sh : shapes) {
                    all.add(batchShape(sh));
                }
                build.put("input_shape", all);
            }
            s.put("build_config", build);
        }
        return s;
    }

    /** A per-sample shape as Keras writes a batch shape: the batch axis, and every open axis, null. */
    static List<Integer> batchShape(Shape s) {
        List<Integer> out = new ArrayList<>();
        out.add(null);
        for (int d : s.dims()) {
            out.add(d == Shape.OPEN ? null : d);
        }
        return out;
    }

    /**
     * The per-sample shape of a batch shape {@code key} as Keras writes it: the batch axis first (ignored), then each
     * axis a size from 1 to {@link KerasRegistry#MAX_SIZE} or null, an open axis ({@link Shape#OPEN}, a sequence
     * length each batch gives).
     */
    private static int[] sampleShape(ConfigView c, String key, List<?> dims) {
        if (dims.size() < 2) {
            throw c.error(key, "expected the batch axis and at least one more, found " + dims);
        }
        int[] shape = new int[dims.size() - 1];
        for (int i = 1; i < dims.size(); i++) {
            Object d = dims.get(i);
            if (d == null) {
                shape[i - 1] = Shape.OPEN;
            } else if (d instanceof Integer n && n >= 1 && n <= KerasRegistry.MAX_SIZE) {
                shape[i - 1] = n;
            } else {
                throw c.error(key, "every axis but the batch axis needs a size from 1 to " + KerasRegistry.MAX_SIZE
                        + " or null (open), found " + dims);
            }
        }
        return shape;
    }

    // ---- reading ----

    /** Makes the model {@code config} describes (not compiled), from the registry's classes only. */
    static Model build(Map<String, Object> config, KerasRegistry registry) {
        ConfigView top = new ConfigView("model", config);
        String cls = top.string("class_name", "");
        ConfigView c = new ConfigView("model '" + cls + "'", top.object("config"));
        String name = c.string("name", cls.toLowerCase(java.util.Locale.ROOT));
        Model m = switch (cls) {
            case "Sequential" -> sequential(c, name, registry);
            case "Functional", "Model" -> functional(c, name, registry);
            default -> throw new ConfigError("model: unknown model class '" + cls
                    + "' (Brisk reads Sequential and Functional models)");
        };
        if (!c.bool("trainable", true)) {
            m.setTrainable(false);
        }
        return m;
    }

    private static Model sequential(ConfigView c, String name, KerasRegistry registry) {
        List<Layer> layers = new ArrayList<>();
        for (Object o : c.list("layers")) {
            layers.add(makeLayer(o, registry));
        }
        Sequential s = Sequential.named(name, layers);
        if (!(layers.isEmpty() ? false : layers.get(0) instanceof InputLayer)) {
            if (!c.has("build_input_shape")) {
                throw c.error("layers", "a Sequential model without an InputLayer needs build_input_shape");
            }
            s.build(sampleShape(c, "build_input_shape", c.list("build_input_shape")));
        }
        return s;
    }

    private static Model functional(ConfigView c, String name, KerasRegistry registry) {
        Map<String, Layer> byName = new LinkedHashMap<>();
        Map<String, List<Object>> nodesOf = new HashMap<>();
        for (Object o : c.list("layers")) {
            Layer l = makeLayer(attentionFlags(o), registry);
            if (byName.put(l.name(), l) != null) {
                throw c.error("layers", "two layers are named '" + l.name() + "'");
            }
            @SuppressWarnings("unchecked")
            ConfigView lc = new ConfigView("layer '" + l.name() + "'", (Map<String, Object>) o);
            nodesOf.put(l.name(), lc.list("inbound_nodes"));
        }
        // Every call's output, by layer name and call index; a call may only read outputs made before it, so the
        // layers are applied in passes until every call has run (Keras lists them in an order that allows one).
        Map<String, List<List<SymbolicTensor>>> outputs = new HashMap<>();
        for (Layer l : byName.values()) {
            List<List<SymbolicTensor>> outs = new ArrayList<>();
            if (l instanceof InputLayer in) {
                outs.add(List.of(in.output()));
            }
            outputs.put(l.name(), outs);
        }
        boolean progress = true;
        int pending = Integer.MAX_VALUE;
        while (progress) {
            progress = false;
            int left = 0;
            for (Layer l : byName.values()) {
                if (l instanceof InputLayer) {
                    continue;
                }
                List<Object> nodes = nodesOf.get(l.name());
                List<List<SymbolicTensor>> outs = outputs.get(l.name());
                while (outs.size() < nodes.size()) {
                    List<SymbolicTensor> args = resolve(l, nodes.get(outs.size()), outputs);
                    if (args == null) {
                        left++;
                        break;
                    }
                    outs.add(l.applyAll(args.toArray(new SymbolicTensor[0])));
                    progress = true;
                }
            }
            if (left == 0) {
                break;
            }
            if (left >= pending && !progress) {
                throw c.error("layers", "the layer calls refer to outputs that no call makes (a cycle, or a missing "
                        + "layer)");
            }
            pending = left;
        }
        List<SymbolicTensor> ins = tensors(c, "input_layers", outputs);
        List<SymbolicTensor> outs = tensors(c, "output_layers", outputs);
        return Model.of(name, ins, outs);
    }

    /** A MultiHeadAttention entry with the flags its calls' arguments give (AttentionCalls); others as they are. */
    @SuppressWarnings("unchecked")
    private static Object attentionFlags(Object o) {
        if (o instanceof Map<?, ?> m && "MultiHeadAttention".equals(m.get("class_name"))) {
            Object config = m.get("config");
            Object name = config instanceof Map<?, ?> cm ? cm.get("name") : null;
            return AttentionCalls.withCallFlags((Map<String, Object>) o, String.valueOf(name));
        }
        return o;
    }

    private static List<SymbolicTensor> tensors(ConfigView c, String key,
                                                Map<String, List<List<SymbolicTensor>>> outs) {
        List<Object> refs = c.list(key);
        // A single tensor may be written as one [name, node, index] triple rather than a list of them.
        if (refs.size() == 3 && refs.get(0) instanceof String) {
            refs = List.of(refs);
        }
        List<SymbolicTensor> out = new ArrayList<>();
        for (Object r : refs) {
            SymbolicTensor t = history(r, outs);
            if (t == null) {
                throw c.error(key, "refers to " + r + ", which no layer call makes");
            }
            out.add(t);
        }
        if (out.isEmpty()) {
            throw c.error(key, "missing");
        }
        return out;
    }

    /** Call arguments Keras records when given explicitly, which are accepted when they say their default, false. */
    private static final java.util.Set<String> OFF_BY_DEFAULT = java.util.Set.of("use_causal_mask",
            "return_attention_scores");

    /**
     * The tensors a call reads (a recurrent layer's {@code initial_state} after its input, as Brisk takes them), or
     * null when one of them is not made yet. Keras records {@code mask: null} (and {@code training}) for layers
     * whose call has such an argument; any other call argument is refused.
     */
    private static List<SymbolicTensor> resolve(Layer l, Object node, Map<String, List<List<SymbolicTensor>>> outs) {
        String layer = l.name();
        if (!(node instanceof Map<?, ?> n)) {
            throw new ConfigError("layer '" + layer + "': an inbound node is not an object: " + node);
        }
        Object initialState = null;
        Object kwargs = n.get("kwargs");
        if (kwargs instanceof Map<?, ?> kw) {
            for (Map.Entry<?, ?> e : kw.entrySet()) {
                if ("initial_state".equals(e.getKey()) && takesInitialState(l)) {
                    initialState = e.getValue();
                } else if (l instanceof MultiHeadAttention && AttentionCalls.handles((String) e.getKey())) {
                    continue; // read below (tensors) and when the layer was made (use_causal_mask)
                } else if (e.getValue() != null && !"training".equals(e.getKey()) && !(e.getValue() instanceof List<?> v
                        && "mask".equals(e.getKey()) && v.stream().allMatch(java.util.Objects::isNull))
                        && !(Boolean.FALSE.equals(e.getValue()) && OFF_BY_DEFAULT.contains(e.getKey()))) {
                    throw new ConfigError("layer '" + layer + "': call argument '" + e.getKey()
                            + "' is not supported by Brisk (its layers take tensors only)");
                }
            }
        }
        List<Object> refs;
        if (l instanceof MultiHeadAttention) {
            refs = AttentionCalls.inputs(layer, n.get("args"), kwargs instanceof Map<?, ?> kw ? kw : Map.of(),
                    (arg, into) -> flatten(arg, into, 0));
        } else {
            refs = new ArrayList<>();
            flatten(n.get("args"), refs, 0);
            flatten(initialState, refs, 0);
        }
        List<SymbolicTensor> out = new ArrayList<>();
        for (Object r : refs) {
            SymbolicTensor t = history(r, outs);
            if (t == null) {
                return null;
            }
            out.add(t);
        }
        if (out.isEmpty()) {
            throw new ConfigError("layer '" + layer + "': a call with no input tensors");
        }
        return out;
    }

    private static void flatten(Object args, List<Object> out, int depth) {
        if (depth > Json.MAX_DEPTH) {
            throw new ConfigError("inbound node arguments nest too deeply");
        }
        if (args instanceof List<?> l) {
            for (Object o : l) {
                flatten(o, out, depth + 1);
            }
        } else if (args instanceof Map<?, ?> m && "__keras_tensor__".equals(m.get("class_name"))) {
            Object config = m.get("config");
            out.add(config instanceof Map<?, ?> cm ? cm.get("keras_history") : null);
        } else if (args != null) {
            throw new ConfigError("inbound node argument " + args + " is not a tensor");
        }
    }

    private static SymbolicTensor history(Object ref, Map<String, List<List<SymbolicTensor>>> outs) {
        if (!(ref instanceof List<?> h) || h.size() != 3 || !(h.get(0) instanceof String name)
                || !(h.get(1) instanceof Integer node) || !(h.get(2) instanceof Integer index)) {
            throw new ConfigError("keras_history " + ref + " is not [layer name, node index, tensor index]");
        }
        List<List<SymbolicTensor>> made = outs.get(name);
        if (made == null) {
            throw new ConfigError("keras_history " + ref + " names no layer of the model");
        }
        if (node < 0 || node >= made.size()) {
            return null;
        }
        List<SymbolicTensor> call = made.get(node);
        if (index < 0 || index >= call.size()) {
            throw new ConfigError("keras_history " + ref + ": layer '" + name + "' has " + call.size()
                    + " output(s)");
        }
        return call.get(index);
    }

    @SuppressWarnings("unchecked")
    static Layer makeLayer(Object o, KerasRegistry registry) {
        if (!(o instanceof Map)) {
            throw new ConfigError("model: a layer entry is not an object: " + o);
        }
        ConfigView outer = new ConfigView("layer", (Map<String, Object>) o);
        String cls = outer.string("class_name", "");
        Map<String, Object> config = outer.object("config");
        String what = "layer '" + new ConfigView("layer", config).string("name", "?") + "' (" + cls + ")";
        ConfigView c = new ConfigView(what, config);
        if (cls.equals("InputLayer")) {
            return inputLayer(c);
        }
        if (outer.string("module", "").startsWith("keras.src.ops.")) {
            // Keras 3 records the ops a functional model calls as entries of its layer list; one it makes itself is
            // not_equal(ids, 0), the padding mask of Embedding(mask_zero=True) passed to a following layer that has
            // a mask argument (layer.py __call__ step 6 fills it into the call's own kwargs).
            throw new ConfigError(what + ": a Keras operation, not a layer; Brisk does not read ops in a functional "
                    + "model (Keras writes one for the padding mask of Embedding(mask_zero=True) passed to a layer "
                    + "with a mask argument)");
        }
        Object dtype = c.raw("dtype");
        if (dtype != null && !isFloat32(dtype)) {
            throw c.error("dtype", "Brisk's layers compute in float32, found " + dtype);
        }
        Layer l = Wrappers.handles(cls) ? Wrappers.make(cls, c, nested -> makeLayer(nested, registry))
                : registry.factory(cls, what).create(c);
        if (!c.bool("trainable", true)) {
            l.setTrainable(false);
        }
        return l;
    }

    private static boolean isFloat32(Object dtype) {
        if ("float32".equals(dtype)) {
            return true;
        }
        if (dtype instanceof Map<?, ?> m && m.get("config") instanceof Map<?, ?> c) {
            return "float32".equals(c.get("name"));
        }
        return false;
    }

    private static InputLayer inputLayer(ConfigView c) {
        c.requireAbsentOr("sparse", false);
        c.requireAbsentOr("ragged", false);
        c.requireAbsentOr("optional", false);
        String key = c.has("batch_shape") ? "batch_shape" : "batch_input_shape";
        int[] shape = sampleShape(c, key, c.list(key));
        String dtype = c.string("dtype", "float32");
        DType t = switch (dtype) {
            case "float32" -> DType.FLOAT32;
            case "int32" -> DType.INT32;
            default -> throw c.error("dtype", "Brisk's inputs are float32 or int32, found " + dtype);
        };
        return new InputLayer(Shape.of(shape), t, KerasRegistry.name(c));
    }
}
