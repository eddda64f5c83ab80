package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' {@code Cropping2D}: rows cut off above and below and columns left and right of an NHWC image (slices). */
public final class Cropping2D extends Layer {
    private final int top;
    private final int bottom;
    private final int left;
    private final int right;

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
        if (top < 0 || bottom < 0 || left < 0 || right < 0) {
            throw new IllegalArgumentException("Cropping2D needs croppings >= 0, got ((" + top + ", " + bottom
                    + "), (" + left + ", " + right + "))");
        }
        this.top = top;
        this.bottom = bottom;
        this.left = left;
        this.right = right;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        if (in.rank() != 3) {
            throw new IllegalArgumentException("Cropping2D takes [height, width, channels] samples, got "
                    + withBatch(in));
        }
        int h = in.dim(0) - top - bottom;
        int w = in.dim(1) - left - right;
        if (h <= 0 || w <= 0) {
            throw new IllegalArgumentException("Cropping2D '" + name() + "': cropping ((" + top + ", " + bottom
                    + "), (" + left + ", " + right + ")) leaves nothing of input " + withBatch(in));
        }
        return Shape.of(h, w, in.dim(2));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Shape s = x.shape();
        if (top > 0 || bottom > 0) {
            x = g.slice(x, 1, top, s.dim(1) - top - bottom);
        }
        if (left > 0 || right > 0) {
            x = g.slice(x, 2, left, s.dim(2) - left - right);
        }
        return x;
    }

    /**
     * The croppings.
     *
     * @return {top, bottom, left, right}
     */
    public int[] cropping() {
        return new int[] {top, bottom, left, right};
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("cropping", List.of(List.of(top, bottom), List.of(left, right)));
        c.put("data_format", "channels_last");
        return c;
    }
}
