package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import java.util.Arrays;
import java.util.List;

/**
 * Keras' {@code PReLU}: {@code relu(x) - alpha * relu(-x)} with a learned slope {@code alpha} per element of the
 * sample (weight {@code alpha}, initialised to zeros), shared along the {@code sharedAxes} (1-based, as in Keras: for
 * images, {@code sharedAxes = {1, 2}} learns one slope per channel).
 */
public final class PReLU extends Layer {
    private final int[] sharedAxes;
    private Variable alpha;

    /**
     * A parametric rectifier.
     *
     * @param sharedAxes the sample axes (1-based, the batch is axis 0) along which one slope is shared; none for a
     *     slope per element
     * @param name the layer's name, or null for an automatic one
     */
    public PReLU(int[] sharedAxes, String name) {
        super(name);
        this.sharedAxes = sharedAxes == null ? new int[0] : sharedAxes.clone();
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        for (int axis : sharedAxes) {
            if (axis < 1 || axis > in.rank()) {
                throw new IllegalArgumentException("PReLU's shared axis " + axis + " is not a sample axis of "
                        + withBatch(in) + " (1.." + in.rank() + ")");
            }
        }
        return in;
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int[] dims = inputShapes.get(0).dims().clone();
        for (int axis : sharedAxes) {
            dims[axis - 1] = 1;
        }
        alpha = addWeight("alpha", Shape.of(dims), Initializer.zeros(), true, null, 0, 0);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Node negative = g.unary(UnaryFn.RELU, g.neg(x));
        return g.sub(g.unary(UnaryFn.RELU, x), g.mul(g.variable(alpha), negative));
    }

    /**
     * The learned slopes.
     *
     * @return alpha; null before the layer is built
     */
    public Variable alpha() {
        return alpha;
    }

    /**
     * The axes the slope is shared along.
     *
     * @return a copy of the 1-based shared axes
     */
    public int[] sharedAxes() {
        return Arrays.copyOf(sharedAxes, sharedAxes.length);
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("alpha_initializer", dev.brisk.nn.Initializer.zeros());
        c.put("alpha_regularizer", null);
        c.put("alpha_constraint", null);
        c.put("shared_axes", sharedAxes.length == 0 ? null
                : java.util.Arrays.stream(sharedAxes).boxed().toList());
        return c;
    }
}
