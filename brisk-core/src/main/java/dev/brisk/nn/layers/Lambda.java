package dev.brisk.nn.layers;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * Keras' {@code Lambda}: a layer whose output is a Java function of its inputs over the graph API ({@link Graph}'s
 * ops, so it runs eagerly and compiled alike and has gradients wherever its ops have). It has no weights. Its output
 * shape is found by tracing the function once on a symbolic graph with a batch of 2; the function must keep the batch
 * axis first. A {@code .keras} file cannot hold a Java function, so a model with a Lambda layer cannot be saved as
 * one: saving says so, naming the layer (save its weights, or write a {@link Layer} subclass and register it).
 */
public final class Lambda extends Layer {
    /** The function of a {@link Lambda} layer. */
    @FunctionalInterface
    public interface Body {
        /**
         * The layer's output.
         *
         * @param g the graph to add ops to
         * @param inputs the inputs, batch axis first
         * @return the output, batch axis first
         */
        Node apply(Graph g, List<Node> inputs);
    }

    private final Body body;

    /**
     * A layer that applies {@code body} to its inputs.
     *
     * @param body the function
     * @param name the layer's name, or null for an automatic one
     */
    public Lambda(Body body, String name) {
        super(name);
        this.body = java.util.Objects.requireNonNull(body, "body");
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Graph g = Graph.symbolic(Backends.get());
        List<Node> xs = new ArrayList<>(inputShapes.size());
        for (int i = 0; i < inputShapes.size(); i++) {
            xs.add(g.input(name() + "/x" + i, inputShapes.get(i).prepend(2)));
        }
        return checked(body.apply(g, xs), 2).dropFirst();
    }

    private Shape checked(Node y, int batch) {
        if (y == null || y.shape().rank() < 1 || y.shape().dim(0) != batch) {
            throw new IllegalArgumentException("Lambda '" + name() + "': the function must return a node whose first "
                    + "axis is the batch (" + batch + "), got " + (y == null ? "null" : y.shape()));
        }
        return y.shape();
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node y = body.apply(g, inputs);
        checked(y, inputs.get(0).shape().dim(0));
        return y;
    }

    /**
     * Refused: a {@code .keras} file cannot hold a Java function.
     *
     * @return never
     * @throws UnsupportedOperationException always, naming the layer
     */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        throw new UnsupportedOperationException(unsaveable());
    }

    /**
     * Why this layer cannot be written to a {@code .keras} file, naming it.
     *
     * @return the message
     */
    public String unsaveable() {
        return "layer '" + name() + "' (Lambda) runs a Java function, which a .keras file cannot hold; save the "
                + "weights alone (Model.saveWeights), or write the function as a Layer subclass with a kerasConfig() "
                + "and register it with KerasRegistry.with";
    }
}
