package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Flattens each sample to one axis (a view, no copy). */
public final class Flatten extends Layer {
    /**
     * A layer that flattens each sample to one axis.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public Flatten(String name) {
        super(name);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return Shape.of(requireSizes(single(inputShapes)).size());
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        return g.reshape(x, Shape.of(x.shape().dim(0), x.shape().size() / Math.max(1, x.shape().dim(0))));
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("data_format", "channels_last");
        return c;
    }
}
