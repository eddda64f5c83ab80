package dev.brisk.keras;

import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.ops.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order in which Keras 3 lists a model's layers, which a {@code .keras} file depends on: a Functional model's
 * {@code config.json} lists its layers in this order, {@code model.weights.h5} numbers its weight groups
 * ({@code dense}, {@code dense_1}, ...) in it, and the optimizer's slots follow the trainable variables in it.
 * Brisk's own {@link Model#layers()} order (depth first from the outputs) is a different topological order for a
 * model with branches, so reading a Keras file in Brisk's order would give two Dense layers of the same shape each
 * other's weights.
 *
 * <p>Keras' rule ({@code keras/src/ops/function.py}, {@code map_graph} and {@code _build_map}): a layer's depth is
 * the longest path from it to an output (a shared layer's, the largest over its calls); layers are listed deepest
 * first, and layers of equal depth in the order a depth-first walk from the outputs first reaches them (a layer is
 * numbered when the walk arrives, before its inputs). Model inputs no output depends on come last. A Sequential
 * model's order is its layer list.
 */
final class KerasOrder {
    private KerasOrder() {
    }

    /** The model's layers in Keras' order (a Sequential model's input layer included, as in {@link Model#layers}). */
    static List<Layer> layers(Model m) {
        if (!m.functional()) {
            return m.layers();
        }
        Map<Layer, Integer> firstVisit = new IdentityHashMap<>();
        List<SymbolicTensor> finishedOrder = new ArrayList<>();
        Set<SymbolicTensor> finished = Collections.newSetFromMap(new IdentityHashMap<>());
        for (SymbolicTensor out : m.outputs()) {
            visit(call(out), firstVisit, finished, finishedOrder);
        }
        // From the outputs back to the inputs, each call's depth is at least one more than any call reading it, and
        // a layer's depth is the largest of its calls' (raised as Keras raises it, in this same walk).
        Map<SymbolicTensor, Integer> callDepth = new IdentityHashMap<>();
        Map<Layer, Integer> layerDepth = new LinkedHashMap<>();
        for (int i = finishedOrder.size() - 1; i >= 0; i--) {
            SymbolicTensor call = finishedOrder.get(i);
            int depth = Math.max(callDepth.getOrDefault(call, 0), layerDepth.getOrDefault(call.layer(), 0));
            layerDepth.put(call.layer(), depth);
            callDepth.put(call, depth);
            for (SymbolicTensor in : call.inputs()) {
                callDepth.merge(call(in), depth + 1, Math::max);
            }
        }
        for (SymbolicTensor in : m.inputs()) {
            if (!layerDepth.containsKey(in.layer())) {
                layerDepth.put(in.layer(), 0);
                firstVisit.put(in.layer(), -1);
            }
        }
        List<Layer> out = new ArrayList<>(layerDepth.keySet());
        out.sort(Comparator.<Layer>comparingInt(l -> -layerDepth.get(l)).thenComparingInt(firstVisit::get));
        return out;
    }

    private static void visit(SymbolicTensor t, Map<Layer, Integer> firstVisit, Set<SymbolicTensor> finished,
                              List<SymbolicTensor> finishedOrder) {
        if (finished.contains(t)) {
            return;
        }
        firstVisit.putIfAbsent(t.layer(), firstVisit.size());
        for (SymbolicTensor in : t.inputs()) {
            visit(call(in), firstVisit, finished, finishedOrder);
        }
        finished.add(t);
        finishedOrder.add(t);
    }

    /**
     * The call (Keras' node) a tensor comes from: itself, or for an output of a layer of several outputs the one
     * call it reads (Keras counts the outputs as tensor indexes of one node).
     */
    static SymbolicTensor call(SymbolicTensor t) {
        return t.isOutputOfSeveral() ? t.inputs().get(0) : t;
    }

    /**
     * The variables the optimizer keeps slots for, in Keras' order: each layer's trainable weights, layer by layer
     * in {@link #layers} order, as Keras' {@code model.trainable_variables} (which the optimizer is built on).
     */
    static List<Variable> trainableVariables(Model m) {
        Set<Variable> trainable = Collections.newSetFromMap(new IdentityHashMap<>());
        trainable.addAll(m.trainableVariables());
        List<Variable> out = new ArrayList<>();
        for (Layer l : layers(m)) {
            for (Variable v : l.weights()) {
                if (trainable.remove(v)) {
                    out.add(v);
                }
            }
        }
        return out;
    }
}
