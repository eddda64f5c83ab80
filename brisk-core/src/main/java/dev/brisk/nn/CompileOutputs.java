package dev.brisk.nn;

import dev.brisk.losses.Loss;
import dev.brisk.metrics.MetricSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The per-output part of {@code compile} (Keras' {@code loss}, {@code loss_weights} and {@code metrics} as lists
 * or as dicts keyed by output name), checked and put in the model's output order.
 *
 * @param losses one loss per output
 * @param lossWeights one weight per output, or null for 1 each
 * @param metrics one metric list per output
 */
record CompileOutputs(List<Loss> losses, float[] lossWeights, List<List<MetricSpec>> metrics) {

    /** Lists in output order; {@code outputs} is 0 for a model that is not built yet (then the lists decide). */
    static CompileOutputs byPosition(String model, int outputs, List<Loss> losses, List<Float> lossWeights,
                                     List<List<MetricSpec>> metrics) {
        if (losses == null || losses.isEmpty() || losses.stream().anyMatch(l -> l == null)) {
            throw new IllegalArgumentException("compile of model '" + model + "' needs a loss for every output, got "
                    + losses);
        }
        int n = outputs == 0 ? losses.size() : outputs;
        requireCount(model, "losses", losses.size(), n);
        float[] w = null;
        if (lossWeights != null) {
            requireCount(model, "loss weights", lossWeights.size(), n);
            w = new float[n];
            for (int i = 0; i < n; i++) {
                Float f = lossWeights.get(i);
                if (f == null || !Float.isFinite(f) || f < 0) {
                    throw new IllegalArgumentException("compile of model '" + model + "': loss weight " + i
                            + " must be a finite number of at least 0, got " + f);
                }
                w[i] = f;
            }
        }
        if (metrics != null) {
            requireCount(model, "metric lists", metrics.size(), n);
        }
        List<List<MetricSpec>> m = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<MetricSpec> list = metrics == null ? List.of() : metrics.get(i);
            if (list == null || list.stream().anyMatch(x -> x == null)) {
                throw new IllegalArgumentException("compile of model '" + model + "' got a null metric for output "
                        + i);
            }
            m.add(List.copyOf(list));
        }
        return new CompileOutputs(List.copyOf(losses), w, List.copyOf(m));
    }

    /** Dicts by output layer name: every output needs a loss; weights and metrics may leave some out. */
    static CompileOutputs byName(String model, List<String> outputs, Map<String, Loss> losses,
                                 Map<String, Float> lossWeights, Map<String, List<MetricSpec>> metrics) {
        if (outputs.isEmpty()) {
            throw new IllegalArgumentException("compile of model '" + model + "' by output name needs a built model"
                    + " (its outputs have no names yet)");
        }
        requireKnown(model, "losses", losses.keySet(), outputs);
        if (lossWeights != null) {
            requireKnown(model, "loss weights", lossWeights.keySet(), outputs);
        }
        if (metrics != null) {
            requireKnown(model, "metrics", metrics.keySet(), outputs);
        }
        List<Loss> l = new ArrayList<>();
        List<Float> w = new ArrayList<>();
        List<List<MetricSpec>> m = new ArrayList<>();
        for (String out : outputs) {
            Loss loss = losses.get(out);
            if (loss == null) {
                throw new IllegalArgumentException("compile of model '" + model + "': no loss for output '" + out
                        + "' (the outputs are " + outputs + ")");
            }
            l.add(loss);
            w.add(lossWeights == null ? 1f : lossWeights.getOrDefault(out, 1f));
            m.add(metrics == null ? List.of() : metrics.getOrDefault(out, List.of()));
        }
        return byPosition(model, outputs.size(), l, lossWeights == null ? null : w, m);
    }

    private static void requireCount(String model, String what, int given, int outputs) {
        if (given != outputs) {
            throw new IllegalArgumentException("compile of model '" + model + "': " + given + " " + what + " for "
                    + outputs + " output(s)");
        }
    }

    private static void requireKnown(String model, String what, Set<String> names, List<String> outputs) {
        Set<String> unknown = new HashSet<>(names);
        outputs.forEach(unknown::remove);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("compile of model '" + model + "': " + what + " for " + unknown
                    + ", which are not outputs of the model " + outputs);
        }
    }
}
