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
 * Keras' {@code ReLU} layer: {@code x} above {@code threshold} (capped at {@code maxValue} when one is given), and
 * {@code negativeSlope * (x - threshold)} below it; with the defaults, {@code max(x, 0)}.
 */
public final class ReLU extends Layer {
    private final Float maxValue;
    private final float negativeSlope;
    private final float threshold;

    /**
     * A rectified linear unit with Keras' options.
     *
     * @param maxValue the largest output, or null for none (Keras' default)
     * @param negativeSlope the slope below the threshold (Keras' default 0)
     * @param threshold where the unit turns on (Keras' default 0)
     * @param name the layer's name, or null for an automatic one
     */
    public ReLU(Float maxValue, float negativeSlope, float threshold, String name) {
        super(name);
        if (maxValue != null && !(maxValue >= 0)) {
            throw new IllegalArgumentException("ReLU's max_value must be >= 0, got " + maxValue);
        }
        if (!(negativeSlope >= 0)) {
            throw new IllegalArgumentException("ReLU's negative_slope must be >= 0, got " + negativeSlope);
        }
        this.maxValue = maxValue;
        this.negativeSlope = negativeSlope;
        this.threshold = threshold;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return single(inputShapes);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        if (maxValue == null && threshold == 0 && negativeSlope != 0) {
            return g.unary(UnaryFn.LEAKY_RELU, negativeSlope, x);
        }
        // Keras' relu: x where x > threshold (else 0), clipped to max_value, minus slope * relu(threshold - x).
        Node positive = threshold == 0 ? g.unary(UnaryFn.RELU, x)
                : g.mul(x, g.binary(BinaryFn.GREATER, x, g.constant(threshold)));
        if (maxValue != null) {
            positive = g.binary(BinaryFn.MIN, positive, g.constant(maxValue));
        }
        if (negativeSlope == 0) {
            return positive;
        }
        Node below = g.unary(UnaryFn.RELU, g.addScalar(g.neg(x), threshold));
        return g.sub(positive, g.scale(below, negativeSlope));
    }

    /**
     * The cap on the output.
     *
     * @return the largest output, or null for none
     */
    public Float maxValue() {
        return maxValue;
    }

    /**
     * The slope below the threshold.
     *
     * @return the negative slope
     */
    public float negativeSlope() {
        return negativeSlope;
    }

    /**
     * Where the unit turns on.
     *
     * @return the threshold
     */
    public float threshold() {
        return threshold;
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("max_value", maxValue);
        c.put("negative_slope", negativeSlope);
        c.put("threshold", threshold);
        return c;
    }
}
