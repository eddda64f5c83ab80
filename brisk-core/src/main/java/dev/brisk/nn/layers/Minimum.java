package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;

/** Keras' {@code Minimum}: the elementwise minimum of two or more inputs, broadcast as Keras does. */
public final class Minimum extends ElementwiseMerge {
    /**
     * The merge layer.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public Minimum(String name) {
        super(name, 2, Integer.MAX_VALUE);
    }

    @Override
    Node combine(Graph g, Node result, Node next) {
        return g.binary(BinaryFn.MIN, result, next);
    }
}
