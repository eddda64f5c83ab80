package dev.brisk.nn;

import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a train step's result depends on, as named tensors a weights file can hold: the weights (by position,
 * so that a model built again by the same code in another process matches whatever its automatic layer names),
 * the optimizer's iteration count, learning rate and slots, the model's random state and each layer's own seed.
 * Integers are stored exactly, 16 bits per float. {@link #restore} checks every entry before it changes anything.
 */
final class TrainingState {
    private TrainingState() {
    }

    static Map<String, Tensor> capture(Model m) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        List<Variable> vars = m.variables();
        for (int i = 0; i < vars.size(); i++) {
            out.put("weight/" + i + "/" + vars.get(i).name(), vars.get(i).value().copy());
        }
        Optimizer opt = m.optimizer();
        if (opt != null) {
            out.put("optimizer/iterations", encode(opt.iterations()));
            out.put("optimizer/learning_rate", Tensor.of(new float[] {opt.learningRate()}, 1));
            int i = 0;
            for (Variable slot : opt.stateVariables(m.trainableVariables())) {
                out.put("optimizer/slot/" + i++ + "/" + slot.name(), slot.value().copy());
            }
        }
        out.put("random/state", encode(m.randomState()));
        List<Layer> layers = m.layers();
        for (int i = 0; i < layers.size(); i++) {
            if (layers.get(i).seed().isPresent()) {
                out.put("random/layer/" + i, encode(layers.get(i).seed().getAsLong()));
            }
        }
        return out;
    }

    static void restore(Model m, Map<String, Tensor> state) {
        // Check everything first: a state that does not fit leaves the model as it was.
        List<Variable> vars = m.variables();
        List<Tensor> weights = new ArrayList<>();
        for (int i = 0; i < vars.size(); i++) {
            weights.add(shaped(state, "weight/" + i + "/", vars.get(i)));
        }
        Optimizer opt = m.optimizer();
        List<Variable> slots = new ArrayList<>();
        List<Tensor> slotValues = new ArrayList<>();
        long iterations = 0;
        if (opt != null) {
            iterations = decode(require(state, "optimizer/iterations"));
            int i = 0;
            for (Variable slot : opt.stateVariables(m.trainableVariables())) {
                slots.add(slot);
                slotValues.add(shaped(state, "optimizer/slot/" + i++ + "/", slot));
            }
        }
        long random = decode(require(state, "random/state"));
        List<Layer> layers = m.layers();
        long[] seeds = new long[layers.size()];
        for (int i = 0; i < layers.size(); i++) {
            if (layers.get(i).seed().isPresent()) {
                seeds[i] = decode(require(state, "random/layer/" + i));
            }
        }
        for (int i = 0; i < vars.size(); i++) {
            vars.get(i).assign(weights.get(i));
        }
        if (opt != null) {
            opt.setIterations(iterations);
            if (!opt.hasSchedule()) {
                opt.setLearningRate(require(state, "optimizer/learning_rate").get(0));
            }
            for (int i = 0; i < slots.size(); i++) {
                slots.get(i).assign(slotValues.get(i));
            }
        }
        m.restoreRandomState(random);
        for (int i = 0; i < layers.size(); i++) {
            if (layers.get(i).seed().isPresent()) {
                layers.get(i).setSeed(seeds[i]);
            }
        }
    }

    private static Tensor require(Map<String, Tensor> state, String key) {
        Tensor t = state.get(key);
        if (t == null) {
            throw new IllegalArgumentException("the saved training state has no '" + key + "' (it was saved from "
                    + "another model or optimizer)");
        }
        return t;
    }

    /** The entry whose name starts with {@code prefix}, of {@code v}'s shape. */
    private static Tensor shaped(Map<String, Tensor> state, String prefix, Variable v) {
        for (Map.Entry<String, Tensor> e : state.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                if (!e.getValue().shape().equals(v.shape())) {
                    throw new IllegalArgumentException("saved '" + e.getKey() + "' has shape " + e.getValue().shape()
                            + " but '" + v.name() + "' has shape " + v.shape() + " (saved from another model)");
                }
                return e.getValue();
            }
        }
        throw new IllegalArgumentException("the saved training state has no '" + prefix + "...' for '" + v.name()
                + "' (saved from another model)");
    }

    /** A long as four floats of 16 bits each, exact. */
    static Tensor encode(long v) {
        float[] f = new float[4];
        for (int i = 0; i < 4; i++) {
            f[i] = (float) ((v >>> (16 * i)) & 0xFFFF);
        }
        return Tensor.of(f, 4);
    }

    static long decode(Tensor t) {
        if (t.shape().size() != 4) {
            throw new IllegalArgumentException("an integer entry must hold 4 values, found shape " + t.shape());
        }
        long v = 0;
        for (int i = 0; i < 4; i++) {
            float f = t.get(i);
            if (!(f >= 0 && f <= 0xFFFF && f == Math.rint(f))) {
                throw new IllegalArgumentException("an integer entry holds " + f + ", not a 16-bit part");
            }
            v |= ((long) f) << (16 * i);
        }
        return v;
    }
}
