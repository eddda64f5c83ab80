package dev.brisk.keras;

import dev.brisk.nn.InputLayer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.nn.layers.Recurrent;
import dev.brisk.ops.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each weight lives in {@code model.weights.h5}, as Keras 3's saving code lays it out: a layer's variables
 * are {@code layers/<key>/vars/0, 1, ...}, the key being the snake-case class name, numbered in layer order
 * ({@code dense}, {@code dense_1}; not the layer's name, which Keras does not trust to be reproducible) in Keras'
 * layer order ({@link KerasOrder}); a
 * recurrent layer's are in its {@code cell}, multi-head attention's in its four projections. Every saveable gets
 * its {@code vars} group, even an empty one. The optimizer's are {@code optimizer/vars/0, 1, ...}.
 */
final class WeightsLayout {
    /** A group of variables: the {@code vars} group at {@code path}. */
    record Group(String path, List<Variable> vars) {
    }

    private WeightsLayout() {
    }

    /**
     * Every layer's groups, in Keras' layer order ({@link KerasOrder}); a Sequential model's input layer is not one
     * of Keras' layers.
     */
    static List<Group> layers(Model m) {
        List<Group> out = new ArrayList<>();
        Map<String, Integer> used = new HashMap<>();
        for (Layer l : KerasOrder.layers(m)) {
            if (l instanceof InputLayer && !m.functional()) {
                continue;
            }
            String key = snake(l.kerasClassName());
            int n = used.merge(key, 1, Integer::sum) - 1;
            String path = "layers/" + (n == 0 ? key : key + "_" + n);
            groups(path, l, out);
        }
        return out;
    }

    private static void groups(String path, Layer l, List<Group> out) {
        List<Variable> w = l.weights();
        if (Wrappers.groups(path, l, (p, inner) -> groups(p, inner, out), out)) {
            return;
        }
        if (l instanceof Recurrent) {
            out.add(new Group(path, List.of()));
            out.add(new Group(path + "/cell", w));
        } else if (l instanceof MultiHeadAttention) {
            out.add(new Group(path, List.of()));
            // Keras' attributes _key_dense, _output_dense, _query_dense, _value_dense, visited in sorted order.
            Map<String, List<Variable>> parts = new LinkedHashMap<>();
            for (String p : List.of("key", "attention_output", "query", "value")) {
                parts.put(p, new ArrayList<>());
            }
            for (Variable v : w) {
                String local = v.name().substring(l.name().length() + 1);
                String part = local.substring(0, local.indexOf('/'));
                parts.get(part).add(v);
            }
            parts.forEach((p, vars) -> out.add(new Group(path + "/_" + (p.equals("attention_output") ? "output" : p)
                    + "_dense", vars)));
        } else {
            out.add(new Group(path, w));
        }
    }

    /** Keras' {@code to_snake_case}: "Conv2D" to "conv2d", "MaxPooling2D" to "max_pooling2d". */
    static String snake(String className) {
        return className.replaceAll("(.)([A-Z][a-z]+)", "$1_$2").replaceAll("([a-z])([A-Z])", "$1_$2")
                .toLowerCase(java.util.Locale.ROOT);
    }
}
