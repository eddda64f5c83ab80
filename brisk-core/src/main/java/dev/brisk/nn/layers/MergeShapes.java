package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * Keras' shape rule for the elementwise merge layers (Add, Subtract, Multiply, Average, Maximum, Minimum): per-sample
 * shapes are aligned on their last axes; on each axis an open size ({@link Shape#OPEN}, Keras' None) on either
 * side gives an open size (each batch's real sizes must then broadcast, checked when the step is traced), else a size
 * of 1 takes the other input's size, and two other sizes must be equal. A per-sample shape of lower rank gains axes
 * of size 1 right after the batch axis, as Keras' {@code expand_dims(x, axis=1)} does, so {@code (None, 1)} scales
 * {@code (None, 10, 1)}'s rows and {@code (None, 8)} is added to every row of {@code (None, 10, 8)}.
 */
final class MergeShapes {
    private MergeShapes() {
    }

    /**
     * The output's per-sample shape.
     *
     * @param layer the layer's description for errors, e.g. {@code "Add (add_1)"}
     * @param shapes the inputs' per-sample shapes
     * @return the merged shape
     * @throws IllegalArgumentException naming the layer, both shapes and the axis that does not broadcast
     */
    static Shape output(String layer, List<Shape> shapes) {
        Shape merged = shapes.get(0);
        for (int i = 1; i < shapes.size(); i++) {
            merged = pair(layer, merged, shapes.get(i));
        }
        return merged;
    }

    private static Shape pair(String layer, Shape a, Shape b) {
        int rank = Math.max(a.rank(), b.rank());
        int[] dims = new int[rank];
        for (int axis = 0; axis < rank; axis++) {
            int i = axis - (rank - a.rank());
            int j = axis - (rank - b.rank());
            int x = i < 0 ? 1 : a.dim(i);
            int y = j < 0 ? 1 : b.dim(j);
            if (x == Shape.OPEN || y == Shape.OPEN) {
                dims[axis] = Shape.OPEN;
            } else if (x == 1 || y == 1 || x == y) {
                dims[axis] = x == 1 ? y : x;
            } else {
                throw new IllegalArgumentException(layer + ": inputs " + Layer.withBatch(a) + " and "
                        + Layer.withBatch(b) + " do not broadcast: axis " + (axis + 1) + " is " + x + " against " + y
                        + " (sizes must be equal, or one of them 1)");
            }
        }
        return Shape.of(dims);
    }

    /**
     * The inputs with the rank of the highest-ranked one: a lower-ranked input reshaped with axes of size 1 after
     * its batch axis, so that the graph's NumPy-style broadcasting (aligned on the last axis of the whole tensor,
     * batch axis included) matches the per-sample alignment above.
     */
    static List<Node> aligned(Graph g, List<Node> inputs) {
        int rank = 0;
        for (Node n : inputs) {
            rank = Math.max(rank, n.shape().rank());
        }
        List<Node> out = new ArrayList<>(inputs.size());
        for (Node n : inputs) {
            Shape s = n.shape();
            if (s.rank() == rank) {
                out.add(n);
                continue;
            }
            int[] dims = new int[rank];
            dims[0] = s.dim(0);
            int missing = rank - s.rank();
            for (int axis = 1; axis < rank; axis++) {
                dims[axis] = axis <= missing ? 1 : s.dim(axis - missing);
            }
            out.add(g.reshape(n, Shape.of(dims)));
        }
        return out;
    }
}
