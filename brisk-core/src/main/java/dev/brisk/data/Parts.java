package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.HashSet;
import java.util.List;

/** The checks that {@link Sample} and {@link Batch} share on their parts (inputs, targets and their names). */
final class Parts {
    private Parts() {
    }

    /**
     * At least one input, no null part, and names (when given) one per part and distinct.
     *
     * @param what "sample" or "batch", for the message
     */
    static void check(String what, Tensor[] inputs, Tensor[] targets, List<String> inputNames,
                      List<String> targetNames) {
        if (inputs.length == 0) {
            throw new IllegalArgumentException("a " + what + " needs at least one input");
        }
        noNulls(what, inputs, "input");
        noNulls(what, targets, "target");
        names(what, inputs, inputNames, "input");
        names(what, targets, targetNames, "target");
    }

    private static void noNulls(String what, Tensor[] parts, String kind) {
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] == null) {
                throw new IllegalArgumentException("the " + what + "'s " + kind + " " + i + " is null");
            }
        }
    }

    private static void names(String what, Tensor[] parts, List<String> names, String kind) {
        if (names == null) {
            return;
        }
        if (names.size() != parts.length || new HashSet<>(names).size() != names.size()) {
            throw new IllegalArgumentException("the " + what + " names its " + parts.length + " " + kind
                    + "(s) " + names + ": one distinct name per " + kind + " expected");
        }
    }

    /** The one part of a single-input (or single-target) sample or batch. */
    static Tensor single(Tensor[] parts, String kind, String accessor) {
        if (parts.length != 1) {
            throw new IllegalStateException(accessor + " is for one " + kind + ", but there are " + parts.length
                    + " (use " + kind + "s())");
        }
        return parts[0];
    }
}
