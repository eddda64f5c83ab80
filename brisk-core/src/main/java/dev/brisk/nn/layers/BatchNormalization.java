package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Batch normalisation (Keras semantics: biased batch variance, epsilon 1e-3, moving statistics
 * {@code moving = moving * momentum + batch * (1 - momentum)} updated in training, used in inference). The channels
 * are on {@code axis} (Keras' default -1, the last); another axis is moved last by a PERMUTE and back after, since
 * the fused kernels normalize over the last axis. Without {@code scale} there is no {@code gamma} (a constant 1),
 * without {@code center} no {@code beta} (a constant 0), as in Keras, whose weights are then gamma (if scale), beta
 * (if center), moving mean, moving variance.
 */
public final class BatchNormalization extends Layer {
    private final float momentum;
    private final float epsilon;
    private final int axis;
    private final boolean center;
    private final boolean scale;
    private Variable gamma;
    private Variable beta;
    private Variable movingMean;
    private Variable movingVariance;

    /**
     * Batch normalization whose moving statistics decay by {@code momentum}; {@code epsilon} is added to the
     * variance.
     *
     * @param momentum the weight of the old value in each moving-statistics update (Keras' default 0.99)
     * @param epsilon added to the variance before its square root (Keras' default 1e-3)
     * @param name the layer's name, or null for an automatic one
     */
    public BatchNormalization(float momentum, float epsilon, String name) {
        this(-1, momentum, epsilon, true, true, name);
    }

    /**
     * Batch normalization with Keras' {@code axis}, {@code center} and {@code scale} options.
     *
     * @param axis the channel axis of the input, batch axis included (-1 the last; 0, the batch, is refused)
     * @param momentum the weight of the old value in each moving-statistics update (Keras' default 0.99)
     * @param epsilon added to the variance before its square root (Keras' default 1e-3)
     * @param center whether to learn an offset {@code beta}
     * @param scale whether to learn a scale {@code gamma}
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if {@code axis} is 0
     */
    public BatchNormalization(int axis, float momentum, float epsilon, boolean center, boolean scale, String name) {
        super(name);
        if (axis == 0) {
            throw new IllegalArgumentException("BatchNormalization cannot normalize along the batch axis 0");
        }
        this.axis = axis;
        this.momentum = momentum;
        this.epsilon = epsilon;
        this.center = center;
        this.scale = scale;
    }

    /** The channel axis of an input of {@code rank} axes, batch included, or an error naming the layer. */
    private int channelAxis(int rank) {
        int a = axis < 0 ? axis + rank : axis;
        if (a < 1 || a >= rank) {
            throw new IllegalArgumentException("BatchNormalization '" + name() + "': axis " + axis + " is not a "
                    + "channel axis of an input of rank " + rank + " (batch included)");
        }
        return a;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() < 1) {
            throw new IllegalArgumentException("BatchNormalization needs samples with at least one axis");
        }
        channelAxis(in.rank() + 1);
        return in;
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        Shape in = inputShapes.get(0);
        Shape c = Shape.of(in.dim(channelAxis(in.rank() + 1) - 1));
        if (scale) {
            gamma = addWeight("gamma", c, Initializer.ones(), true, null, 0, 0);
        }
        if (center) {
            beta = addWeight("beta", c, Initializer.zeros(), true, null, 0, 0);
        }
        movingMean = addWeight("moving_mean", c, Initializer.zeros(), false, null, 0, 0);
        movingVariance = addWeight("moving_variance", c, Initializer.ones(), false, null, 0, 0);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        int rank = x.shape().rank();
        int a = channelAxis(rank);
        if (a == rank - 1) {
            return normalize(g, x, ctx);
        }
        int[] perm = new int[rank];
        for (int i = 0, j = 0; i < rank; i++) {
            if (i != a) {
                perm[j++] = i;
            }
        }
        perm[rank - 1] = a;
        int[] inverse = new int[rank];
        for (int i = 0; i < rank; i++) {
            inverse[perm[i]] = i;
        }
        return g.permute(normalize(g, g.permute(x, perm), ctx), inverse);
    }

    /** Batch normalization over the last axis of {@code x}. */
    private Node normalize(Graph g, Node x, CallContext ctx) {
        Shape channels = Shape.of(x.shape().dim(-1));
        Node gammaNode = scale ? g.variable(gamma) : g.broadcastTo(g.constant(1f), channels);
        Node betaNode = center ? g.variable(beta) : g.broadcastTo(g.constant(0f), channels);
        // One fused op per pass, whose kernels add runs of rows in double: composed of float reductions and
        // elementwise ops, the statistics and the gradients lost digits in proportion to the batch's mean over its
        // spread.
        // A frozen BatchNormalization normalizes with its moving statistics even in a training step and leaves them
        // alone, as Keras 3 does: fine-tuning on a small dataset would otherwise drag the statistics the frozen
        // base was trained with towards the new data's.
        if (ctx.training() && isTrainable()) {
            Node statistics = g.batchNormStatistics(x);
            Node mean = g.reshape(g.slice(statistics, 0, 0, 1), channels);
            Node variance = g.reshape(g.slice(statistics, 0, 1, 1), channels);
            g.assign(movingMean, movingAverage(g, g.variable(movingMean), mean));
            g.assign(movingVariance, movingAverage(g, g.variable(movingVariance), variance));
            return g.batchNorm(x, statistics, gammaNode, betaNode, epsilon, true);
        }
        Shape row = Shape.of(1, channels.dim(0));
        Node moving = g.concat(0, List.of(g.reshape(g.variable(movingMean), row),
                g.reshape(g.variable(movingVariance), row)));
        return g.batchNorm(x, moving, gammaNode, betaNode, epsilon, false);
    }

    private Node movingAverage(Graph g, Node moving, Node batch) {
        return g.add(g.scale(moving, momentum), g.scale(batch, 1 - momentum));
    }

    /**
     * The learned scale.
     *
     * @return gamma, one per channel; null before the layer is built or without {@code scale}
     */
    public Variable gamma() {
        return gamma;
    }

    /**
     * The learned offset.
     *
     * @return beta, one per channel; null before the layer is built or without {@code center}
     */
    public Variable beta() {
        return beta;
    }

    /**
     * The moving mean used at inference.
     *
     * @return the moving mean, one per channel; null before the layer is built
     */
    public Variable movingMean() {
        return movingMean;
    }

    /**
     * The moving variance used at inference.
     *
     * @return the moving variance, one per channel; null before the layer is built
     */
    public Variable movingVariance() {
        return movingVariance;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("axis", axis);
        c.put("momentum", momentum);
        c.put("epsilon", epsilon);
        c.put("center", center);
        c.put("scale", scale);
        c.put("beta_initializer", Initializer.zeros());
        c.put("gamma_initializer", Initializer.ones());
        c.put("moving_mean_initializer", Initializer.zeros());
        c.put("moving_variance_initializer", Initializer.ones());
        c.put("beta_regularizer", null);
        c.put("gamma_regularizer", null);
        c.put("beta_constraint", null);
        c.put("gamma_constraint", null);
        c.put("synchronized", false);
        return c;
    }
}
