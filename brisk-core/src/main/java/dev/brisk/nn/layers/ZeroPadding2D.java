package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.ArrayList;
import java.util.List;

/** Keras' {@code ZeroPadding2D}: rows of zeros above and below and columns of zeros left and right of an image. */
public final class ZeroPadding2D extends Layer {
    private final ImageMargins padding;

    /**
     * A padding layer ({@code ((top, bottom), (left, right))} in Keras).
     *
     * @param top rows of zeros above
     * @param bottom rows of zeros below
     * @param left columns of zeros on the left
     * @param right columns of zeros on the right
     * @param name the layer's name, or null for an automatic one
     */
    public ZeroPadding2D(int top, int bottom, int left, int right, String name) {
        super(name);
        this.padding = ImageMargins.checked("ZeroPadding2D", "paddings", top, bottom, left, right);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return padding.resize(this, requireSizes(single(inputShapes)), 1);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        x = pad(g, x, 2, padding.left(), padding.right());
        return pad(g, x, 1, padding.top(), padding.bottom());
    }

    /** {@code x} with {@code before} and {@code after} slices of zeros along {@code axis}, by concatenation. */
    static Node pad(Graph g, Node x, int axis, int before, int after) {
        if (before == 0 && after == 0) {
            return x;
        }
        List<Node> parts = new ArrayList<>();
        if (before > 0) {
            parts.add(zeros(g, x.shape(), axis, before));
        }
        parts.add(x);
        if (after > 0) {
            parts.add(zeros(g, x.shape(), axis, after));
        }
        return g.concat(axis, parts);
    }

    private static Node zeros(Graph g, Shape like, int axis, int size) {
        int[] dims = like.dims().clone();
        dims[axis] = size;
        return g.broadcastTo(g.constant(0f), Shape.of(dims));
    }

    /**
     * The paddings.
     *
     * @return {top, bottom, left, right}
     */
    public int[] padding() {
        return padding.toArray();
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("padding", padding.kerasValue());
        c.put("data_format", "channels_last");
        return c;
    }
}
