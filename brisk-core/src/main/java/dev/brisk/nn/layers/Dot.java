package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Keras' {@code Dot}: the dot product of the samples of two inputs along one axis of each (Keras' {@code batch_dot}),
 * for samples of rank 1 or 2: {@code (batch, n) . (batch, n) -> (batch, 1)}, {@code (batch, a, n) . (batch, n, b)
 * -> (batch, a, b)} with axes {@code (2, 1)}, and so on; the free axis of the first input comes before the second's.
 * It is one batched matrix product: a sample of rank 1 is a one-row (first input) or one-column (second input)
 * matrix. With {@code normalize}, each input is first divided by its L2 norm along its axis as Keras 3's
 * {@code ops.normalize} does: {@code x min(rsqrt(sum x^2), 1 / epsilon)}, epsilon 1e-7; the output is then the
 * cosine similarity.
 */
public final class Dot extends Layer {
    /** Keras' {@code backend.epsilon()}, the floor of the norm in {@code ops.normalize}. */
    private static final float EPSILON = 1e-7f;
    private final int axis1;
    private final int axis2;
    private final boolean normalize;

    /**
     * A dot-product merge layer.
     *
     * @param axis1 the axis of the first input's samples (1-based, counting the batch axis as 0, as Keras; or
     *     negative from the end)
     * @param axis2 the axis of the second input's samples, likewise
     * @param normalize whether to L2-normalize each input along its axis first
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if an axis is 0 (the batch axis)
     */
    public Dot(int axis1, int axis2, boolean normalize, String name) {
        super(name);
        if (axis1 == 0 || axis2 == 0) {
            throw new IllegalArgumentException("Dot cannot take the product along the batch axis 0, got axes ("
                    + axis1 + ", " + axis2 + ")");
        }
        this.axis1 = axis1;
        this.axis2 = axis2;
        this.normalize = normalize;
    }

    /** The axis of a sample of {@code rank} axes (batch excluded), 1 or 2, or an error naming the layer. */
    private int sampleAxis(int axis, Shape sample, int which) {
        int rank = sample.rank();
        if (rank < 1 || rank > 2) {
            throw new IllegalArgumentException("Dot '" + name() + "' takes inputs of rank 2 or 3 (batch included), "
                    + "input " + which + " has shape " + withBatch(sample));
        }
        int a = axis < 0 ? axis + rank + 1 : axis;
        if (a < 1 || a > rank) {
            throw new IllegalArgumentException("Dot '" + name() + "': axis " + axis + " is not an axis of input "
                    + which + " " + withBatch(sample));
        }
        return a;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        if (inputShapes.size() != 2) {
            throw new IllegalArgumentException("Dot needs exactly 2 inputs, got " + inputShapes.size());
        }
        Shape x = inputShapes.get(0);
        Shape y = inputShapes.get(1);
        int a = sampleAxis(axis1, x, 1);
        int b = sampleAxis(axis2, y, 2);
        if (x.dim(a - 1) != y.dim(b - 1)) {
            throw new IllegalArgumentException("Dot '" + name() + "': axis " + a + " of " + withBatch(x)
                    + " and axis " + b + " of " + withBatch(y) + " differ in size");
        }
        int[] free = new int[x.rank() + y.rank() - 2];
        int i = 0;
        if (x.rank() == 2) {
            free[i++] = x.dim(2 - a);
        }
        if (y.rank() == 2) {
            free[i++] = y.dim(2 - b);
        }
        return free.length == 0 ? Shape.of(1) : Shape.of(free);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Shape out = outputShape(List.of(sample(inputs.get(0)), sample(inputs.get(1))));
        Node x = inputs.get(0);
        Node y = inputs.get(1);
        int a = sampleAxis(axis1, sample(x), 1);
        int b = sampleAxis(axis2, sample(y), 2);
        if (normalize) {
            x = l2Normalize(g, x, a);
            y = l2Normalize(g, y, b);
        }
        int batch = x.shape().dim(0);
        // A rank-1 sample is a one-row matrix on the left, a one-column matrix on the right.
        if (x.shape().rank() == 2) {
            x = g.reshape(x, Shape.of(batch, 1, x.shape().dim(1)));
            a = 2;
        }
        if (y.shape().rank() == 2) {
            y = g.reshape(y, Shape.of(batch, y.shape().dim(1), 1));
            b = 1;
        }
        Node product = g.batchMatmul(x, y, a == 1, b == 2);
        int[] dims = new int[out.rank() + 1];
        dims[0] = batch;
        System.arraycopy(out.dims(), 0, dims, 1, out.rank());
        return g.reshape(product, Shape.of(dims));
    }

    private static Shape sample(Node n) {
        int[] d = n.shape().dims();
        return Shape.of(java.util.Arrays.copyOfRange(d, 1, d.length));
    }

    private static Node l2Normalize(Graph g, Node x, int axis) {
        Node squares = g.sum(g.square(x), true, axis);
        Node floored = g.binary(BinaryFn.MAX, squares, g.constant(EPSILON * EPSILON));
        return g.mul(x, g.unary(UnaryFn.RSQRT, floored));
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("axes", List.of(axis1, axis2));
        c.put("normalize", normalize);
        return c;
    }
}
