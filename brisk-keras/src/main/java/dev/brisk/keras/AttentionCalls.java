package dev.brisk.keras;

import dev.brisk.nn.layers.MultiHeadAttention;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MultiHeadAttention's call arguments as Keras 3 records them in a functional model's {@code inbound_nodes}
 * ({@code keras/src/models/functional.py serialize_node}: the arguments the call was given), and Brisk's
 * construction flags they stand for. Keras' {@code call(query, value, key=None, query_mask=None, value_mask=None,
 * key_mask=None, attention_mask=None, return_attention_scores=False, training=None, use_causal_mask=False)} takes
 * the causal mask and the attention mask tensor per call; a Brisk layer fixes both when it is made, and takes the
 * mask as its last input. So a call is written {@code args: [query, value(, key)]}, {@code kwargs:
 * {"attention_mask": <tensor>, "use_causal_mask": true}} (each only when used), and read back into the flags.
 */
final class AttentionCalls {
    /** Keras' names of MultiHeadAttention's sequence arguments, in its positional order. */
    private static final List<String> SEQUENCES = List.of("query", "value", "key");
    /** Brisk files before the flags were written per call kept them in the layer's config under these keys. */
    private static final String CAUSAL = "use_causal_mask";
    private static final String MASK_INPUT = "attention_mask_input";

    private AttentionCalls() {
    }

    /** One call as Keras records it: the query, value (and key) positionally, the rest as keyword arguments. */
    static Map<String, Object> node(MultiHeadAttention l, List<Object> inputs) {
        List<Object> args = new ArrayList<>(inputs);
        Map<String, Object> kwargs = new LinkedHashMap<>();
        if (l.attentionMaskInput()) {
            kwargs.put("attention_mask", args.remove(args.size() - 1));
        }
        if (l.useCausalMask()) {
            kwargs.put(CAUSAL, true);
        }
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("args", args);
        node.put("kwargs", kwargs);
        return node;
    }

    /**
     * Keras' {@code get_build_config} of the layer: its {@code build(query_shape, value_shape, key_shape=None)}
     * has several arguments, so the shapes go in a {@code shapes_dict} (the attention mask is not among them).
     */
    static Map<String, Object> buildConfig(MultiHeadAttention l, List<List<Integer>> inputShapes) {
        Map<String, Object> shapes = new LinkedHashMap<>();
        int sequences = inputShapes.size() - (l.attentionMaskInput() ? 1 : 0);
        for (int i = 0; i < sequences && i < SEQUENCES.size(); i++) {
            shapes.put(SEQUENCES.get(i) + "_shape", inputShapes.get(i));
        }
        Map<String, Object> build = new LinkedHashMap<>();
        build.put("shapes_dict", shapes);
        return build;
    }

    /**
     * The layer entry with {@code use_causal_mask} and {@code attention_mask_input} in its config as its calls
     * say (Keras' files, and Brisk's since), or as its config says (Brisk's older files). Brisk's flags are per
     * layer, so calls of one shared layer that differ in them are refused.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> withCallFlags(Map<String, Object> entry, String layer) {
        Object nodes = entry.get("inbound_nodes");
        Boolean causal = null;
        Boolean maskInput = null;
        if (nodes instanceof List<?> list) {
            for (Object n : list) {
                Map<?, ?> kwargs = n instanceof Map<?, ?> m && m.get("kwargs") instanceof Map<?, ?> k ? k : Map.of();
                Object c = kwargs.get(CAUSAL);
                if (c != null && !(c instanceof Boolean)) {
                    throw new ConfigError("layer '" + layer + "': call argument " + CAUSAL + " must be true or "
                            + "false, found " + c);
                }
                causal = same(causal, Boolean.TRUE.equals(c), CAUSAL, layer);
                maskInput = same(maskInput, kwargs.get("attention_mask") != null, "attention_mask", layer);
            }
        }
        Map<String, Object> config = entry.get("config") instanceof Map<?, ?> c
                ? new LinkedHashMap<>((Map<String, Object>) c) : new LinkedHashMap<>();
        ConfigView old = new ConfigView("layer '" + layer + "' (MultiHeadAttention)", config);
        config.put(CAUSAL, Boolean.TRUE.equals(causal) || old.bool(CAUSAL, false));
        config.put(MASK_INPUT, Boolean.TRUE.equals(maskInput) || old.bool(MASK_INPUT, false));
        Map<String, Object> out = new LinkedHashMap<>(entry);
        out.put("config", config);
        return out;
    }

    private static Boolean same(Boolean before, boolean now, String what, String layer) {
        if (before != null && before != now) {
            throw new ConfigError("layer '" + layer + "': its calls differ in " + what + ", which Brisk's "
                    + "MultiHeadAttention fixes per layer (share the weights through two layers instead)");
        }
        return now;
    }

    /** Whether {@code key} is a call argument this reader takes from a MultiHeadAttention call's kwargs. */
    static boolean handles(String key) {
        return SEQUENCES.contains(key) || "attention_mask".equals(key) || CAUSAL.equals(key);
    }

    /**
     * The call's input references in Brisk's order (query, value, key, attention mask): the positional ones, then
     * those given by name. {@code flatten} turns one argument into its tensor references.
     */
    static List<Object> inputs(String layer, Object args, Map<?, ?> kwargs,
                               java.util.function.BiConsumer<Object, List<Object>> flatten) {
        List<Object> refs = new ArrayList<>();
        flatten.accept(args, refs);
        int positional = refs.size();
        for (int i = 0; i < SEQUENCES.size(); i++) {
            Object named = kwargs.get(SEQUENCES.get(i));
            if (named == null) {
                continue;
            }
            if (i != refs.size()) {
                throw new ConfigError("layer '" + layer + "': call argument '" + SEQUENCES.get(i) + "' "
                        + (i < positional ? "is given twice" : "is given without the ones before it"));
            }
            flatten.accept(named, refs);
        }
        if (refs.size() < 2 || refs.size() > 3) {
            throw new ConfigError("layer '" + layer + "': MultiHeadAttention is called with query, value and "
                    + "optionally key, found " + refs.size() + " tensor(s)");
        }
        Object mask = kwargs.get("attention_mask");
        if (mask != null) {
            flatten.accept(mask, refs);
        }
        return refs;
    }
}
