package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** Keras' {@code Average}: the elementwise mean of two or more inputs, broadcast as Keras does. */
public final class Average extends ElementwiseMerge {
    /**
     * The merge layer.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public Average(String name) {
        super(name, 2, Integer.MAX_VALUE);
    }

    @Override
    Node combine(Graph g, Node result, Node next) {
        return g.add(result, next);
    }

    @Override
    Node finish(Graph g, Node combined, int count) {
        return g.scale(combined, 1f / count);
    }
}
