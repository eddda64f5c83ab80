package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' {@code LeakyReLU} layer: {@code x} for {@code x >= 0}, else {@code negativeSlope * x} (default 0.3). */
public final class LeakyReLU extends Layer {
    /** Keras' default slope of the layer (the function's default is 0.2). */
    public static final float DEFAULT_NEGATIVE_SLOPE = 0.3f;
    private final float negativeSlope;

    /**
     * A leaky rectifier.
     *
     * @param negativeSlope the slope for negative inputs, at least 0
     * @param name the layer's name, or null for an automatic one
     */
    public LeakyReLU(float negativeSlope, String name) {
        super(name);
        if (!(negativeSlope >= 0)) {
            throw new IllegalArgumentException("LeakyReLU's negative_slope must be >= 0, got " + negativeSlope);
        }
        this.negativeSlope = negativeSlope;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return single(inputShapes);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return g.unary(UnaryFn.LEAKY_RELU, negativeSlope, inputs.get(0));
    }

    /**
     * The slope for negative inputs.
     *
     * @return the negative slope
     */
    public float negativeSlope() {
        return negativeSlope;
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("negative_slope", negativeSlope);
        return c;
    }
}
