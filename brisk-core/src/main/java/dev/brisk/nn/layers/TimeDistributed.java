package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.Arrays;
import java.util.List;

/**
 * Keras' {@code TimeDistributed}: applies one layer (one set of weights) to every step of a
 * {@code (batch, steps, ...)} input. The steps are folded into the batch, {@code (batch steps, ...)}, by a reshape
 * (a view, no copy), the layer runs once over all of them, and its output is unfolded again; the input's mask, if
 * any, stays with the output.
 */
public final class TimeDistributed extends Layer {
    private final Layer layer;

    /**
     * Wraps {@code layer}, whose weights become this layer's.
     *
     * @param layer the layer applied to each step
     * @param name the layer's name, or null for an automatic one
     */
    public TimeDistributed(Layer layer, String name) {
        super(name);
        this.layer = track(layer);
    }

    /**
     * The wrapped layer.
     *
     * @return the layer applied to each step
     */
    public Layer layer() {
        return layer;
    }

    private static Shape step(Shape in) {
        if (in.rank() < 2) {
            throw new IllegalArgumentException("TimeDistributed expects input of rank 3 or more (batch, steps, ...), "
                    + "got shape " + withBatch(in));
        }
        return Shape.of(Arrays.copyOfRange(in.dims(), 1, in.rank()));
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        return layer.checkedOutputShape(List.of(step(in))).prepend(in.dim(0));
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        buildSublayer(layer, List.of(step(inputShapes.get(0))));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        int batch = x.shape().dim(0);
        int steps = x.shape().dim(1);
        Shape folded = Shape.of(Arrays.copyOfRange(x.shape().dims(), 1, x.shape().rank())).withDim(0, batch * steps);
        Node y = layer.invoke(g, List.of(g.reshape(x, folded)), ctx);
        Node out = g.reshape(y, y.shape().dropFirst().prepend(steps).prepend(batch));
        Node mask = g.maskOf(x);
        if (mask != null) {
            g.setMask(out, mask);
        }
        return out;
    }
}
