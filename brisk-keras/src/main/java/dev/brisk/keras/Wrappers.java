package dev.brisk.keras;

import dev.brisk.nn.Layer;
import dev.brisk.nn.layers.Bidirectional;
import dev.brisk.nn.layers.Recurrent;
import dev.brisk.nn.layers.TimeDistributed;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Keras' layers that wrap other layers, {@code Bidirectional} and {@code TimeDistributed}, in a {@code .keras}
 * file: their configs nest the wrapped layers' serialized configs (Keras 3's {@code get_config}: Bidirectional's
 * {@code layer} is the forward copy, {@code forward_<name>}, beside {@code backward_layer} and {@code merge_mode};
 * TimeDistributed's {@code layer}), and their weights live in the wrapped layers' groups
 * ({@code <path>/forward_layer/cell/vars}, {@code <path>/backward_layer/cell/vars}, {@code <path>/layer/vars}),
 * as Keras' saver walks the wrapper's attributes.
 */
final class Wrappers {
    private Wrappers() {
    }

    /** Whether {@code className} is a wrapper this class reads. */
    static boolean handles(String className) {
        return className.equals("Bidirectional") || className.equals("TimeDistributed");
    }

    /** Adds a wrapper's nested layers to its serialized form {@code s} (nothing for other layers). */
    @SuppressWarnings("unchecked")
    static void addConfig(Layer l, Map<String, Object> s) {
        Map<String, Object> config = (Map<String, Object>) s.get("config");
        if (l instanceof Bidirectional b) {
            // Keras writes merge_mode=None (the two directions as two outputs) as JSON null.
            config.put("merge_mode", b.mergeMode() == Bidirectional.MergeMode.NONE ? null
                    : b.mergeMode().name().toLowerCase(Locale.ROOT));
            config.put("layer", ModelConfig.layer(b.forwardLayer(), false));
            config.put("backward_layer", ModelConfig.layer(b.backwardLayer(), false));
        } else if (l instanceof TimeDistributed t) {
            config.put("layer", ModelConfig.layer(t.layer(), false));
        }
    }

    /** The weight groups of a wrapper at {@code path}, or false when {@code l} is not one. */
    static boolean groups(String path, Layer l, java.util.function.BiConsumer<String, Layer> nested,
                          List<WeightsLayout.Group> out) {
        if (l instanceof Bidirectional b) {
            out.add(new WeightsLayout.Group(path, List.of()));
            nested.accept(path + "/forward_layer", b.forwardLayer());
            nested.accept(path + "/backward_layer", b.backwardLayer());
            return true;
        }
        if (l instanceof TimeDistributed t) {
            out.add(new WeightsLayout.Group(path, List.of()));
            nested.accept(path + "/layer", t.layer());
            return true;
        }
        return false;
    }

    /** Makes the wrapper {@code c} describes; {@code nested} makes a wrapped layer from its serialized config. */
    static Layer make(String className, ConfigView c, Function<Object, Layer> nested) {
        String name = KerasRegistry.name(c);
        if (className.equals("TimeDistributed")) {
            return new TimeDistributed(nested.apply(required(c, "layer")), name);
        }
        Bidirectional.MergeMode mode;
        if (c.isNull("merge_mode")) {
            mode = Bidirectional.MergeMode.NONE; // Keras' None: the two directions as two outputs
        } else {
            String given = c.string("merge_mode", "concat");
            try {
                mode = Bidirectional.MergeMode.valueOf(given.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                mode = null;
            }
            if (mode == null || mode == Bidirectional.MergeMode.NONE) { // "none" is not a Keras name: None is
                throw c.error("merge_mode", "expected concat, sum, mul, ave or None, found '" + given + "'");
            }
        }
        // Keras names the forward copy forward_<name> and records it as `layer`; Brisk makes both copies from a
        // template named <name>, so the template is the forward config under its own name.
        Map<String, Object> forwardConfig = required(c, "layer");
        Layer forward = nested.apply(renamed(forwardConfig, "forward_"));
        if (!(forward instanceof Recurrent template)) {
            throw c.error("layer", "Brisk's Bidirectional wraps SimpleRNN, LSTM or GRU, found "
                    + forward.kerasClassName());
        }
        if (c.raw("backward_layer") != null) {
            Layer backward = nested.apply(renamed(required(c, "backward_layer"), "backward_"));
            // Brisk's backward copy is the forward one reading the other way (the factories have refused every
            // option Brisk's recurrent layers do not have): any other backward layer is refused.
            if (!(backward instanceof Recurrent r) || !r.kerasClassName().equals(template.kerasClassName())
                    || r.units() != template.units() || r.returnSequences() != template.returnSequences()
                    || r.returnState() != template.returnState() || r.goBackwards() == template.goBackwards()) {
                throw c.error("backward_layer", "is not the forward layer reading the other way (Brisk's backward "
                        + "copy is); found " + backward.kerasClassName() + " " + backward.kerasConfig());
            }
        }
        return new Bidirectional(template, mode, name);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> required(ConfigView c, String key) {
        Map<String, Object> o = c.object(key);
        if (o == null) {
            throw c.error(key, "missing: the wrapped layer's config");
        }
        return o;
    }

    /**
     * The serialized layer with its config's name without {@code prefix}, and without the
     * {@code zero_output_for_mask} Keras' Bidirectional forces to {@code return_sequences} on both copies (which
     * Brisk's Bidirectional does too); any other value is left for the layer's factory to refuse.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> renamed(Map<String, Object> serialized, String prefix) {
        Map<String, Object> out = new LinkedHashMap<>(serialized);
        if (serialized.get("config") instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) m);
            if (copy.get("name") instanceof String n && n.startsWith(prefix)) {
                copy.put("name", n.substring(prefix.length()));
            }
            Object zero = copy.get("zero_output_for_mask");
            if (zero != null && zero.equals(copy.getOrDefault("return_sequences", false))) {
                copy.remove("zero_output_for_mask");
            }
            out.put("config", copy);
        }
        return out;
    }
}
