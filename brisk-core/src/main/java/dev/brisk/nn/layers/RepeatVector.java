package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' {@code RepeatVector}: a {@code [features]} sample repeated {@code n} times into {@code [n, features]}. */
public final class RepeatVector extends Layer {
    private final int n;

    /**
     * A repetition layer.
     *
     * @param n how many times each sample is repeated, at least 1
     * @param name the layer's name, or null for an automatic one
     */
    public RepeatVector(int n, String name) {
        super(name);
        if (n < 1) {
            throw new IllegalArgumentException("RepeatVector needs n >= 1, got " + n);
        }
        this.n = n;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 1) {
            throw new IllegalArgumentException("RepeatVector takes samples of rank 1, got " + withBatch(in));
        }
        return Shape.of(n, in.dim(0));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        int batch = x.shape().dim(0);
        int features = x.shape().dim(1);
        return g.broadcastTo(g.reshape(x, Shape.of(batch, 1, features)), Shape.of(batch, n, features));
    }

    /**
     * The repetition count.
     *
     * @return n
     */
    public int n() {
        return n;
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("n", n);
        return c;
    }
}
