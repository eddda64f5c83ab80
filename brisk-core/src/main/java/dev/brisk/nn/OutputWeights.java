package dev.brisk.nn;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Sample weights given per output (Keras' {@code fit(sample_weight=[w1, w2])} or {@code {"name": w}}), stacked into
 * one {@code (samples, outputs)} array whose column {@code i} weighs output {@code i}'s loss and weighted metrics. A
 * single {@code (samples)} array weighs every output alike; batches carry either form as their weights.
 */
final class OutputWeights {
    private OutputWeights() {
    }

    /**
     * The {@code (samples, outputs)} array of one weight array per output, in output order.
     *
     * @throws IllegalArgumentException naming the model and the array when the count, a shape or a weight is wrong
     */
    static Tensor byPosition(Model model, Tensor[] perOutput) {
        int k = model.outputs().size();
        if (perOutput.length != k) {
            throw new IllegalArgumentException("model '" + model.name() + "' has " + k + " outputs, but "
                    + perOutput.length + " sample weight arrays were given (one per output, or one for all)");
        }
        return stack(model, perOutput, i -> "sample weights of output " + i);
    }

    /**
     * The {@code (samples, outputs)} array of weight arrays by output layer name; an output left out weighs 1.
     *
     * @throws IllegalArgumentException naming the model and the name when a name is not an output's
     */
    static Tensor byName(Model model, Map<String, Tensor> byName) {
        List<String> names = model.outputs().stream().map(t -> t.layer().name()).toList();
        for (String name : byName.keySet()) {
            if (!names.contains(name)) {
                throw new IllegalArgumentException("model '" + model.name() + "': sample weights for '" + name
                        + "', which is not an output (outputs: " + new TreeSet<>(names) + ")");
            }
        }
        if (byName.isEmpty()) {
            throw new IllegalArgumentException("model '" + model.name() + "': no sample weights given by name");
        }
        int n = byName.values().iterator().next().size();
        Tensor[] arrays = new Tensor[names.size()];
        for (int i = 0; i < arrays.length; i++) {
            Tensor w = byName.get(names.get(i));
            if (w == null) {
                float[] ones = new float[n];
                java.util.Arrays.fill(ones, 1f);
                w = Tensor.of(ones, n);
            }
            arrays[i] = w;
        }
        return stack(model, arrays, i -> "sample weights of output '" + names.get(i) + "'");
    }

    private static Tensor stack(Model model, Tensor[] arrays, java.util.function.IntFunction<String> what) {
        int k = arrays.length;
        int n = arrays[0].size();
        float[] out = new float[n * k];
        for (int i = 0; i < k; i++) {
            Tensor w = arrays[i];
            if (w == null || w.size() != n || w.shape().rank() == 0 || w.shape().dim(0) != n) {
                throw new IllegalArgumentException("model '" + model.name() + "': " + what.apply(i) + " have shape "
                        + (w == null ? "null" : w.shape()) + "; one weight per sample (" + n + ") expected");
            }
            for (int s = 0; s < n; s++) {
                float v = w.get(s);
                if (!Float.isFinite(v) || v < 0) {
                    throw new IllegalArgumentException("model '" + model.name() + "': " + what.apply(i) + ": weight "
                            + s + " is " + v + "; finite weights of at least 0 expected");
                }
                out[s * k + i] = v;
            }
        }
        return Tensor.of(out, n, k);
    }

    /** Output {@code i}'s weights of a batch: the whole array when it is one for all outputs, else column i. */
    static Tensor column(Tensor weights, int i) {
        if (weights == null || weights.shape().rank() < 2) {
            return weights;
        }
        int n = weights.shape().dim(0);
        int k = weights.shape().dim(1);
        float[] out = new float[n];
        for (int s = 0; s < n; s++) {
            out[s] = weights.get(s * k + i);
        }
        return Tensor.of(out, n);
    }

    /** Whether batch weights are one column per output rather than one array for all. */
    static boolean perOutput(Tensor weights) {
        return weights != null && weights.shape().rank() == 2;
    }

    /** A single output's {@code (samples, 1)} weights as the {@code (samples)} array they are. */
    static Tensor flatForOneOutput(Tensor stacked) {
        return stacked.shape().dim(1) == 1 ? stacked.reshape(Shape.of(stacked.shape().dim(0))) : stacked;
    }
}
