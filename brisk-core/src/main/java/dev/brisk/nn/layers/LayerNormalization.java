package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * Layer normalization over the last axis (Keras' {@code LayerNormalization}): each sample's row is normalized by its
 * own mean and biased variance, {@code (x - mean) / sqrt(variance + epsilon) * gamma + beta}, with no moving
 * statistics (training and inference compute the same). One fused op forward and two backward, which sum in double.
 * Weights are Keras': {@code gamma} (ones) and {@code beta} (zeros), one per element of the last axis.
 */
public final class LayerNormalization extends Layer {
    private final int axis;
    private final float epsilon;
    private final boolean center;
    private final boolean scale;
    private Variable gamma;
    private Variable beta;
    /** The fixed gamma (ones) or beta (zeros) of a layer without that weight, made once. */
    private Tensor fixedGamma;
    private Tensor fixedBeta;

    /**
     * Layer normalization.
     *
     * @param axis the normalized axis; only the last ({@code -1}, Keras' default) is supported
     * @param epsilon added to the variance (Keras' default 1e-3)
     * @param center whether to learn the offset {@code beta}
     * @param scale whether to learn the scale {@code gamma}
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException for another axis or a negative epsilon
     */
    public LayerNormalization(int axis, float epsilon, boolean center, boolean scale, String name) {
        super(name);
        if (axis != -1) {
            throw new IllegalArgumentException("LayerNormalization supports the last axis (-1) only, got " + axis);
        }
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("LayerNormalization epsilon must be >= 0, got " + epsilon);
        }
        this.axis = axis;
        this.epsilon = epsilon;
        this.center = center;
        this.scale = scale;
    }

    /**
     * The normalized axis.
     *
     * @return -1, the last axis
     */
    public int axis() {
        return axis;
    }

    /**
     * The epsilon added to the variance.
     *
     * @return epsilon
     */
    public float epsilon() {
        return epsilon;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() < 1) {
            throw new IllegalArgumentException("LayerNormalization needs samples with at least one axis, got "
                    + withBatch(in));
        }
        return in;
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        Shape c = Shape.of(inputShapes.get(0).dim(-1));
        if (scale) {
            gamma = addWeight("gamma", c, Initializer.ones(), true, null, 0, 0);
        } else {
            fixedGamma = Initializer.ones().create(c, 0, 0, 0);
        }
        if (center) {
            beta = addWeight("beta", c, Initializer.zeros(), true, null, 0, 0);
        } else {
            fixedBeta = Tensor.zeros(c);
        }
    }

    /** Each step alone: the input's padding mask stays with the output, as Keras' {@code supports_masking}. */
    @Override
    protected boolean passesMask() {
        return true;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node gammaNode = scale ? g.variable(gamma) : g.constant(fixedGamma);
        Node betaNode = center ? g.variable(beta) : g.constant(fixedBeta);
        return g.layerNorm(inputs.get(0), gammaNode, betaNode, epsilon);
    }

    /**
     * The learned scale.
     *
     * @return gamma, one per element of the last axis; null without one or before the layer is built
     */
    public Variable gamma() {
        return gamma;
    }

    /**
     * The learned offset.
     *
     * @return beta, one per element of the last axis; null without one or before the layer is built
     */
    public Variable beta() {
        return beta;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("axis", axis);
        c.put("epsilon", epsilon);
        c.put("center", center);
        c.put("scale", scale);
        c.put("rms_scaling", false);
        c.put("beta_initializer", Initializer.zeros());
        c.put("gamma_initializer", Initializer.ones());
        c.put("beta_regularizer", null);
        c.put("gamma_regularizer", null);
        c.put("beta_constraint", null);
        c.put("gamma_constraint", null);
        return c;
    }
}
