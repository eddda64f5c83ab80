package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Keras' {@code SpatialDropout2D}: in training drops whole channels of each NHWC image (one draw per sample and
 * channel, Keras' {@code noise_shape (batch, 1, 1, channels)}) and scales the rest by {@code 1 / (1 - rate)};
 * identity otherwise. The mask is a dropout of ones shaped {@code [batch, 1, 1, channels]} (the DROPOUT op, so the
 * same seeded stream as Dropout), broadcast over the image by a multiplication.
 */
public final class SpatialDropout2D extends Layer {
    private final float rate;
    /** The layer's own seed, mixed with each step's seed (drawn from RandomSeed if not set), as Dropout's. */
    private volatile long salt = RandomSeed.next();

    /**
     * Drops a fraction {@code rate} of the channels in training.
     *
     * @param rate the fraction dropped, from 0 (inclusive) to 1 (exclusive)
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if the rate is outside [0, 1)
     */
    public SpatialDropout2D(float rate, String name) {
        super(name);
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("SpatialDropout2D rate must be in [0, 1), got " + rate);
        }
        this.rate = rate;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 3) {
            throw new IllegalArgumentException("SpatialDropout2D expects input of rank 4 (batch, height, width, "
                    + "channels), got shape " + withBatch(in));
        }
        return in;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        if (!ctx.training() || rate == 0) {
            return x;
        }
        Shape s = x.shape();
        Node ones = g.broadcastTo(g.constant(1f), Shape.of(s.dim(0), 1, 1, s.dim(3)));
        return g.mul(x, g.dropout(ones, rate, ctx.seed(), salt));
    }

    @Override
    public java.util.OptionalLong seed() {
        return java.util.OptionalLong.of(salt);
    }

    @Override
    public SpatialDropout2D setSeed(long seed) {
        this.salt = seed;
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("rate", rate);
        c.put("seed", salt);
        c.put("data_format", "channels_last");
        return c;
    }
}
