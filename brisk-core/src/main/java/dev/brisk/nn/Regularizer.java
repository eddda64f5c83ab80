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
     * Keras' L1: {@code factor * sum(|w|)}.
     *
     * @param factor the penalty factor, e.g. 0.01
     * @return the regularizer
     */
    static Regularizer l1(float factor) {
        return new L1(factor);
    }

    /**
     * Keras' L1L2: {@code l1 * sum(|w|) + l2 * sum(w^2)} (Keras' {@code regularizers.l1_l2} defaults both to 0.01).
     *
     * @param l1 the L1 factor
     * @param l2 the L2 factor
     * @return the regularizer
     */
    static Regularizer l1l2(float l1, float l2) {
        return new L1L2(l1, l2);
    }

    /**
     * Keras' {@code L1} regularizer: {@code l1 * sum(|w|)}; its gradient is {@code l1 * sign(w)} (0 at 0).
     *
     * @param l1 the factor
     */
    record L1(float l1) implements Regularizer, dev.brisk.io.KerasObject {
        @Override
        public Node penalty(Graph g, Node weight) {
            return g.scale(g.sumAll(g.unary(dev.brisk.ops.UnaryFn.ABS, weight)), l1);
        }

        @Override
        public String kerasClassName() {
            return "L1";
        }

        @Override
        public java.util.Map<String, Object> kerasConfig() {
            return java.util.Map.of("l1", l1);
        }
    }

    /**
     * Keras' {@code L1L2} regularizer: {@code l1 * sum(|w|) + l2 * sum(w^2)}.
     *
     * @param l1 the L1 factor
     * @param l2 the L2 factor
     */
    record L1L2(float l1, float l2) implements Regularizer, dev.brisk.io.KerasObject {
        @Override
        public Node penalty(Graph g, Node weight) {
            return g.add(new L1(l1).penalty(g, weight), new L2(l2).penalty(g, weight));
        }

        @Override
        public String kerasClassName() {
            return "L1L2";
        }

        @Override
        public java.util.Map<String, Object> kerasConfig() {
            java.util.Map<String, Object> c = new java.util.LinkedHashMap<>();
            c.put("l1", l1);
            c.put("l2", l2);
            return c;
        }
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
