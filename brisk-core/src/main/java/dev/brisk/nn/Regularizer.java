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
        return new L2(factor);
    }

    /**
     * Keras' {@code L2} regularizer: {@code l2 * sum(w^2)}.
     *
     * @param l2 the factor
     */
    record L2(float l2) implements Regularizer, dev.brisk.io.KerasObject {
        @Override
        public Node penalty(Graph g, Node weight) {
            return g.scale(g.sumAll(g.square(weight)), l2);
        }

        @Override
        public String kerasClassName() {
            return "L2";
        }

        @Override
        public java.util.Map<String, Object> kerasConfig() {
            return java.util.Map.of("l2", l2);
        }
    }
}
