package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** Keras' {@code Multiply}: the elementwise product of two or more inputs, broadcast as Keras does. */
public final class Multiply extends ElementwiseMerge {
    /**
     * The merge layer.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public Multiply(String name) {
        super(name, 2, Integer.MAX_VALUE);
    }

    @Override
    Node combine(Graph g, Node result, Node next) {
        return g.mul(result, next);
    }
}
