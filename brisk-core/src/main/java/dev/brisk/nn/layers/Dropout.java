package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Inverted dropout: in training zeroes a fraction {@code rate} of units and scales the rest; identity otherwise. */
public final class Dropout extends Layer {
    private final float rate;
    /** This layer's own random stream (Keras' SeedGenerator): drawn from {@link RandomSeed} when made. */
    /** The layer's own seed, mixed with each step's seed: Keras' {@code seed} (drawn from RandomSeed if not set). */
    private volatile long salt = RandomSeed.next();

    /**
     * Drops a fraction {@code rate} of its inputs in training and scales the rest up to match.
     *
     * @param rate the fraction dropped, from 0 (inclusive) to 1 (exclusive)
     * @param name the layer's name, or null for an automatic one
     */
    public Dropout(float rate, String name) {
        super(name);
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("dropout rate must be in [0, 1), got " + rate);
        }
        this.rate = rate;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return single(inputShapes);
    }

    /** Each step alone: the input's padding mask stays with the output, as Keras' {@code supports_masking}. */
    @Override
    protected boolean passesMask() {
        return true;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        if (!ctx.training() || rate == 0) {
            return inputs.get(0);
        }
        return g.dropout(inputs.get(0), rate, ctx.seed(), salt);
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("rate", rate);
        c.put("seed", salt);
        c.put("noise_shape", null);
        return c;
    }

    @Override
    public java.util.OptionalLong seed() {
        return java.util.OptionalLong.of(salt);
    }

    @Override
    public Dropout setSeed(long seed) {
        this.salt = seed;
        return this;
    }
}
