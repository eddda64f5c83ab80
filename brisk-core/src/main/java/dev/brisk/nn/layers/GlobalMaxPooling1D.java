package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.ReduceFn;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Maximum over the steps: {@code (batch, steps, features) -> (batch, features)}; a padding mask is not read. */
public final class GlobalMaxPooling1D extends Layer {
    /**
     * A layer that takes each feature's maximum over the steps.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public GlobalMaxPooling1D(String name) {
        super(name);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 2) {
            throw new IllegalArgumentException("GlobalMaxPooling1D expects input of rank 3 (batch, steps, "
                    + "features), got shape " + withBatch(in));
        }
        return Shape.of(in.dim(1));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return g.reduce(ReduceFn.MAX, inputs.get(0), false, 1);
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
