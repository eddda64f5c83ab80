package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;

/** What follows the product in every convolution layer: the bias, when there is one, then the activation. */
final class Epilogue {
    private Epilogue() {
    }

    /**
     * {@code activation(y + bias)}, or {@code activation(y)} without a bias.
     *
     * @param bias the bias, or null
     */
    static Node apply(Graph g, Node y, Variable bias, Activation activation) {
        return activation.apply(g, bias == null ? y : g.add(y, g.variable(bias)));
    }
}
