package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Keras' {@code UpSampling2D} with nearest-neighbour interpolation (Keras' default): each pixel of an
 * {@code [h, w, c]} image repeated into a {@code rows x cols} block. Bilinear interpolation is not there yet.
 */
public final class UpSampling2D extends Layer {
    private final int rows;
    private final int cols;

    /**
     * An upsampling layer.
     *
     * @param rows the factor along the image's height
     * @param cols the factor along its width
     * @param name the layer's name, or null for an automatic one
     */
    public UpSampling2D(int rows, int cols, String name) {
        super(name);
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("UpSampling2D needs factors >= 1, got " + rows + "x" + cols);
        }
        this.rows = rows;
        this.cols = cols;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        if (in.rank() != 3) {
            throw new IllegalArgumentException("UpSampling2D takes [height, width, channels] samples, got "
                    + withBatch(in));
        }
        return Shape.of(in.dim(0) * rows, in.dim(1) * cols, in.dim(2));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        // [n, h, w, c] -> [n, h, 1, w, 1, c] -> broadcast [n, h, rows, w, cols, c] -> [n, h*rows, w*cols, c]: the
        // broadcast's gradient sums each block back onto its pixel.
        Node x = inputs.get(0);
        Shape s = x.shape();
        int n = s.dim(0);
        int h = s.dim(1);
        int w = s.dim(2);
        int c = s.dim(3);
        Node spread = g.broadcastTo(g.reshape(x, Shape.of(n, h, 1, w, 1, c)), Shape.of(n, h, rows, w, cols, c));
        return g.reshape(spread, Shape.of(n, h * rows, w * cols, c));
    }

    /**
     * The upsampling factors.
     *
     * @return {rows, cols}
     */
    public int[] size() {
        return new int[] {rows, cols};
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("size", java.util.List.of(rows, cols));
        c.put("data_format", "channels_last");
        c.put("interpolation", "nearest");
        return c;
    }
}
