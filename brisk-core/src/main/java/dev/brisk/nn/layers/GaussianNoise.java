package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Keras' {@code GaussianNoise}: in training adds normal noise of mean 0 and standard deviation {@code stddev} to every
 * element (a RANDOM_NORMAL op, drawn from the step's seed mixed with the layer's own, as Dropout's mask); identity
 * otherwise. The gradient passes through unchanged.
 */
public final class GaussianNoise extends Layer {
    private final float stddev;
    /** The layer's own seed, mixed with each step's seed (drawn from RandomSeed if not set), as Dropout's. */
    private volatile long salt = RandomSeed.next();

    /**
     * A noise layer.
     *
     * @param stddev the noise's standard deviation, at least 0
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if {@code stddev} is negative or not finite
     */
    public GaussianNoise(float stddev, String name) {
        super(name);
        if (!(stddev >= 0 && Float.isFinite(stddev))) {
            throw new IllegalArgumentException("GaussianNoise needs a finite stddev >= 0, got " + stddev);
        }
        this.stddev = stddev;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return single(inputShapes);
    }

    @Override
    protected boolean passesMask() {
        return true;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        if (!ctx.training() || stddev == 0) {
            return x;
        }
        return g.add(x, g.randomNormal(x.shape(), stddev, ctx.seed(), salt));
    }

    @Override
    public java.util.OptionalLong seed() {
        return java.util.OptionalLong.of(salt);
    }

    @Override
    public GaussianNoise setSeed(long seed) {
        this.salt = seed;
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("stddev", stddev);
        c.put("seed", salt);
        return c;
    }
}
