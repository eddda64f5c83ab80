package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Element-wise sum of two or more inputs, their shapes broadcast as Keras does ({@link MergeShapes}). */
public final class Add extends Layer {
    /**
     * A layer that adds its inputs elementwise.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public Add(String name) {
        super(name);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        if (inputShapes.size() < 2) {
            throw new IllegalArgumentException("Add needs at least two inputs, got " + inputShapes.size());
        }
        return MergeShapes.output(typeName() + " (" + name() + ")", inputShapes);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        List<Node> aligned = MergeShapes.aligned(g, inputs);
        Node sum = aligned.get(0);
        for (int i = 1; i < aligned.size(); i++) {
            sum = g.add(sum, aligned.get(i));
        }
        // Keras' Merge: the output mask is the AND (a product of 0/1 floats) of the inputs' masks, where any has one.
        Node mask = null;
        for (Node in : inputs) {
            Node m = g.maskOf(in);
            if (m != null) {
                mask = mask == null ? m : g.mul(mask, m);
            }
        }
        if (mask != null) {
            g.setMask(sum, mask);
        }
        return sum;
    }
}
