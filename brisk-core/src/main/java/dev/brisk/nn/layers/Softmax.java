package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' {@code Softmax} layer: probabilities along {@code axis} (default -1, the last). */
public final class Softmax extends Layer {
    private final int axis;

    /**
     * A softmax layer.
     *
     * @param axis the axis the output sums to one along; negative counts from the end; 0 (the batch) is refused
     * @param name the layer's name, or null for an automatic one
     */
    public Softmax(int axis, String name) {
        super(name);
        if (axis == 0) {
            throw new IllegalArgumentException("Softmax over axis 0 would mix the samples of a batch");
        }
        this.axis = axis;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        int rank = in.rank() + 1;
        if (axis < -rank || axis >= rank) {
            throw new IllegalArgumentException("Softmax axis " + axis + " is out of range for " + withBatch(in));
        }
        return in;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return g.softmax(inputs.get(0), axis);
    }

    /**
     * The normalised axis.
     *
     * @return the axis, as given
     */
    public int axis() {
        return axis;
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("axis", axis);
        return c;
    }
}
