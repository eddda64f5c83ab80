package dev.brisk.nn;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** A penalty on a weight added to the training loss. */
@FunctionalInterface
public interface Regularizer {
    /**
     * Adds to {@code g} the penalty this regularizer adds to the loss for {@code weight}.
     *
     * @param g the graph the penalty is added to
     * @param weight the weight's node
     * @return a scalar node
     */
    Node penalty(Graph g, Node weight);

    /**
     * Keras' L2: {@code factor * sum(w^2)}.
     *
     * @param factor the penalty factor, e.g. 0.01
     * @return the regularizer
     */
    static Regularizer l2(float factor) {
        return (g, w) -> g.scale(g.sumAll(g.square(w)), factor);
    }
}
