package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Mean over the steps: {@code (batch, steps, features) -> (batch, features)}. When its input carries a padding mask
 * ({@link Graph#maskOf}, from {@code Embedding(maskZero)}) it averages over the unmasked steps only, as Keras does:
 * {@code sum(x * mask) / sum(mask)}.
 */
public final class GlobalAveragePooling1D extends Layer {
    /**
     * A layer that averages each feature over the steps.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public GlobalAveragePooling1D(String name) {
        super(name);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 2) {
            throw new IllegalArgumentException("GlobalAveragePooling1D expects input of rank 3 (batch, steps, "
                    + "features), got shape " + withBatch(in));
        }
        return Shape.of(in.dim(1));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Node mask = g.maskOf(x);
        if (mask == null) {
            return g.mean(x, false, 1);
        }
        Shape s = x.shape();
        Node weights = g.reshape(mask, Shape.of(s.dim(0), s.dim(1), 1));
        Node sums = g.sum(g.mul(x, weights), false, 1);
        Node counts = g.sum(mask, true, 1);
        return g.div(sums, counts);
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
