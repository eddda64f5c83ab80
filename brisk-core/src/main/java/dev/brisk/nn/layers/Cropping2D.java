package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' {@code Cropping2D}: rows cut off above and below and columns left and right of an NHWC image (slices). */
public final class Cropping2D extends Layer {
    private final ImageMargins cropping;

    /**
     * A cropping layer ({@code ((top, bottom), (left, right))} in Keras).
     *
     * @param top rows cut off above
     * @param bottom rows cut off below
     * @param left columns cut off on the left
     * @param right columns cut off on the right
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a cropping is negative
     */
    public Cropping2D(int top, int bottom, int left, int right, String name) {
        super(name);
        this.cropping = ImageMargins.checked("Cropping2D", "croppings", top, bottom, left, right);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        Shape out = cropping.resize(this, in, -1);
        if (out.dim(0) <= 0 || out.dim(1) <= 0) {
            throw new IllegalArgumentException("Cropping2D '" + name() + "': cropping " + cropping.pairs()
                    + " leaves nothing of input " + withBatch(in));
        }
        return out;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Shape s = x.shape();
        ImageMargins m = cropping;
        if (m.top() > 0 || m.bottom() > 0) {
            x = g.slice(x, 1, m.top(), s.dim(1) - m.top() - m.bottom());
        }
        if (m.left() > 0 || m.right() > 0) {
            x = g.slice(x, 2, m.left(), s.dim(2) - m.left() - m.right());
        }
        return x;
    }

    /**
     * The croppings.
     *
     * @return {top, bottom, left, right}
     */
    public int[] cropping() {
        return cropping.toArray();
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("cropping", cropping.kerasValue());
        c.put("data_format", "channels_last");
        return c;
    }
}
