package dev.brisk.nn.layers;

import dev.brisk.ops.image.ContrastAugment;
import java.util.List;
import java.util.Map;

/**
 * Keras' {@code RandomContrast} layer: in training each image's channels become {@code (x - mean) * k + mean} with
 * {@code k} drawn from {@code [1 - lower, 1 + upper]}, clipped to {@code value_range} (default {@code [0, 255]}) (the
 * pipeline map function's math, {@link dev.brisk.data.preprocessing.RandomContrast}); the identity outside training.
 */
public final class RandomContrast extends RandomImageLayer {
    private final double lower;
    private final double upper;
    private final float low;
    private final float high;

    /**
     * A contrast layer.
     *
     * @param lower how far below 1 the factor may go, in [0, 1]
     * @param upper how far above 1 it may go, at least 0
     * @param low the lowest output value (Keras' {@code value_range[0]})
     * @param high the highest output value
     * @param name the layer's name, or null for an automatic one
     */
    public RandomContrast(double lower, double upper, float low, float high, String name) {
        super(new ContrastAugment(lower, upper, low, high), name);
        this.lower = lower;
        this.upper = upper;
        this.low = low;
        this.high = high;
    }

    @Override
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = super.kerasConfig();
        c.put("factor", pair(lower, upper));
        c.put("value_range", List.of(low, high));
        return c;
    }
}
