package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.ShapeInference;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Shared logic of MaxPooling1D and AveragePooling1D: {@code (batch, steps, channels)} is viewed as an NHWC image of
 * height 1, {@code (batch, 1, steps, channels)}, and pooled by the 2-D pooling kernels with a {@code 1 x poolSize}
 * window (a reshape is a view, so nothing is copied).
 */
abstract class Pooling1D extends Layer {
    /** The 2-D pooling window of height 1, strides and padding. */
    protected final PoolAttrs attrs;

    Pooling1D(int poolSize, int stride, Padding padding, String name) {
        super(name);
        if (poolSize < 1 || stride < 1) {
            throw new IllegalArgumentException("pooling needs a positive pool size and stride, got " + poolSize
                    + " and " + stride);
        }
        if (padding == Padding.CAUSAL) {
            throw new IllegalArgumentException("pooling takes padding VALID or SAME, not CAUSAL");
        }
        this.attrs = new PoolAttrs(1, poolSize, 1, stride, padding == Padding.SAME);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 2) {
            throw new IllegalArgumentException(typeName() + " expects input of rank 3 (batch, steps, channels), "
                    + "got shape " + withBatch(in));
        }
        if (in.dim(0) == Shape.OPEN) {
            return Shape.of(Shape.OPEN, in.dim(1)); // an open length stays open
        }
        int steps = ShapeInference.outAndPad(in.dim(0), attrs.poolW(), attrs.strideW(), attrs.same())[0];
        if (steps <= 0) {
            throw new IllegalArgumentException("pool " + attrs.poolW() + " does not fit input " + withBatch(in));
        }
        return Shape.of(steps, in.dim(1));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Shape s = x.shape();
        Node pooled = pool(g, g.reshape(x, Shape.of(s.dim(0), 1, s.dim(1), s.dim(2))));
        Shape p = pooled.shape();
        return g.reshape(pooled, Shape.of(p.dim(0), p.dim(2), p.dim(3)));
    }

    abstract Node pool(Graph g, Node image);

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("pool_size", java.util.List.of(attrs.poolW()));
        c.put("padding", attrs.same() ? "same" : "valid");
        c.put("strides", java.util.List.of(attrs.strideW()));
        c.put("data_format", "channels_last");
        return c;
    }
}
