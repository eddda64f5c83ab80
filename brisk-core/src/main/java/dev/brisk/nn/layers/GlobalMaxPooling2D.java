package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.ReduceFn;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' {@code GlobalMaxPooling2D}: each channel's maximum over the image, {@code (batch, h, w, c) -> (batch, c)}. */
public final class GlobalMaxPooling2D extends Layer {
    /**
     * A layer that takes each channel's maximum over height and width.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public GlobalMaxPooling2D(String name) {
        super(name);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 3) {
            throw new IllegalArgumentException("GlobalMaxPooling2D expects input of rank 4 (batch, height, width, "
                    + "channels), got shape " + withBatch(in));
        }
        return Shape.of(in.dim(2));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return g.reduce(ReduceFn.MAX, inputs.get(0), false, 1, 2);
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("data_format", "channels_last");
        c.put("keepdims", false);
        return c;
    }
}
