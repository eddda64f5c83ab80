package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** Keras' {@code Subtract}: the first of exactly two inputs minus the second. */
public final class Subtract extends ElementwiseMerge {
    /**
     * The merge layer.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public Subtract(String name) {
        super(name, 2, 2);
    }

    @Override
    Node combine(Graph g, Node result, Node next) {
        return g.sub(result, next);
    }
}
