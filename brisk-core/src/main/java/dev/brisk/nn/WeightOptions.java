package dev.brisk.nn;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A layer's per-weight regularizers and constraints (Keras' {@code bias_regularizer}, {@code kernel_constraint},
 * ...) and its activity regularizer, with the activity penalties each training graph has collected so far. Set
 * before the layer is built; {@link Layer#addWeight} reads them by weight name.
 */
final class WeightOptions {
    private final Map<String, Regularizer> regularizers = new HashMap<>();
    private final Map<String, Constraint> constraints = new HashMap<>();
    private final List<Variable> constrained = new ArrayList<>();
    private final List<Constraint> constrainedBy = new ArrayList<>();
    private Regularizer activity;
    /** Per graph (compared by identity, weakly held): replicas of a data-parallel step trace at once. */
    private final Map<Graph, List<Node>> activityPenalties = Collections.synchronizedMap(new WeakHashMap<>());

    void setRegularizer(String weight, Regularizer r) {
        if (r == null) {
            regularizers.remove(weight);
        } else {
            regularizers.put(weight, r);
        }
    }

    void setConstraint(String weight, Constraint c) {
        if (c == null) {
            constraints.remove(weight);
        } else {
            constraints.put(weight, c);
        }
    }

    Regularizer regularizer(String weight) {
        return regularizers.get(weight);
    }

    Constraint constraint(String weight) {
        return constraints.get(weight);
    }

    /** Registers {@code v} (made as {@code weight}) with its constraint, if one is set. */
    void created(String weight, Variable v) {
        Constraint c = constraints.get(weight);
        if (c != null) {
            constrained.add(v);
            constrainedBy.add(c);
        }
    }

    /** Projects every constrained weight, as Keras does after each optimizer step. */
    void applyConstraints() {
        for (int i = 0; i < constrained.size(); i++) {
            constrainedBy.get(i).apply(constrained.get(i).value());
        }
    }

    Regularizer activity() {
        return activity;
    }

    void setActivity(Regularizer r) {
        activity = r;
    }

    /**
     * Keras 3 adds {@code activity_regularizer(output) / batch_size} to the loss for each output of every call, so
     * training and evaluation losses both count it; the penalties wait here until the step's loss collects them
     * ({@link #takeActivityPenalties}). A prediction never collects them: a compiled plan drops them as dead nodes.
     */
    void addActivityPenalties(Graph g, List<Node> outputs) {
        if (activity == null) {
            return;
        }
        List<Node> list = activityPenalties.computeIfAbsent(g, k -> Collections.synchronizedList(new ArrayList<>()));
        for (Node out : outputs) {
            int batch = out.shape().rank() == 0 ? 1 : out.shape().dim(0);
            list.add(g.scale(activity.penalty(g, out), 1f / Math.max(1, batch)));
        }
    }

    /** The activity penalties {@code g}'s training calls added, now forgotten. */
    List<Node> takeActivityPenalties(Graph g) {
        List<Node> list = activityPenalties.remove(g);
        return list == null ? List.of() : list;
    }
}
