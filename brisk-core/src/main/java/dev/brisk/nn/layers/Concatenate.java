package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Joins its inputs along an axis (default the last), as Keras' Concatenate. */
public final class Concatenate extends Layer {
    private final int axis;

    /**
     * A layer that joins its inputs along {@code axis}.
     *
     * @param axis the axis, counted with the batch axis (negative counts from the end); not 0, the batch axis
     * @param name the layer's name, or null for an automatic one
     */
    public Concatenate(int axis, String name) {
        super(name);
        if (axis == 0) {
            throw new IllegalArgumentException("Concatenate cannot join along the batch axis 0");
        }
        this.axis = axis;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        if (inputShapes.size() < 2) {
            throw new IllegalArgumentException("Concatenate needs at least two inputs, got " + inputShapes.size());
        }
        Shape first = inputShapes.get(0);
        int ax = sampleAxis(first.rank());
        int total = 0;
        for (Shape s : inputShapes) {
            if (s.rank() != first.rank()) {
                throw new IllegalArgumentException("Concatenate needs inputs of one rank, got " + withBatch(first)
                        + " and " + withBatch(s));
            }
            for (int i = 0; i < s.rank(); i++) {
                if (i != ax && s.dim(i) != first.dim(i)) {
                    throw new IllegalArgumentException("Concatenate along axis " + axis + " needs matching other "
                            + "dimensions, got " + withBatch(first) + " and " + withBatch(s));
                }
            }
            total = total == Shape.OPEN || s.dim(ax) == Shape.OPEN ? Shape.OPEN : total + s.dim(ax);
        }
        return first.withDim(ax, total);
    }

    /** The axis within a sample (batch axis excluded). */
    private int sampleAxis(int sampleRank) {
        int ax = axis < 0 ? sampleRank + axis : axis - 1;
        if (ax < 0 || ax >= sampleRank) {
            throw new IllegalArgumentException("axis " + axis + " is out of range for samples of rank " + sampleRank);
        }
        return ax;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        int sampleRank = inputs.get(0).shape().rank() - 1;
        return g.concat(sampleAxis(sampleRank) + 1, inputs);
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("axis", axis);
        return c;
    }
}
