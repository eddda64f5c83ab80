package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.ShapeInference;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Shared shape logic of MaxPooling2D and AveragePooling2D. */
abstract class Pooling2D extends Layer {
    /** The pooling window, strides and padding. */
    protected final PoolAttrs attrs;

    Pooling2D(int poolH, int poolW, int strideH, int strideW, Padding padding, String name) {
        super(name);
        if (poolH < 1 || poolW < 1 || strideH < 1 || strideW < 1) {
            throw new IllegalArgumentException("pooling needs positive pool size and strides");
        }
        if (padding == Padding.CAUSAL) {
            throw new IllegalArgumentException("pooling takes padding VALID or SAME, not CAUSAL");
        }
        this.attrs = new PoolAttrs(poolH, poolW, strideH, strideW, padding == Padding.SAME);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        if (in.rank() != 3) {
            throw new IllegalArgumentException(typeName() + " expects input of rank 4 (batch, height, width, "
                    + "channels), got shape " + withBatch(in));
        }
        int h = ShapeInference.outAndPad(in.dim(0), attrs.poolH(), attrs.strideH(), attrs.same())[0];
        int w = ShapeInference.outAndPad(in.dim(1), attrs.poolW(), attrs.strideW(), attrs.same())[0];
        if (h <= 0 || w <= 0) {
            throw new IllegalArgumentException("pool " + attrs.poolH() + "x" + attrs.poolW()
                    + " does not fit input " + withBatch(in));
        }
        return Shape.of(h, w, in.dim(2));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return pool(g, inputs.get(0));
    }

    abstract Node pool(Graph g, Node x);

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("pool_size", java.util.List.of(attrs.poolH(), attrs.poolW()));
        c.put("padding", attrs.same() ? "same" : "valid");
        c.put("strides", java.util.List.of(attrs.strideH(), attrs.strideW()));
        c.put("data_format", "channels_last");
        return c;
    }
}
