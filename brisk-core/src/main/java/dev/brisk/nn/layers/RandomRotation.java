package dev.brisk.nn.layers;

import dev.brisk.ops.image.AffineMaps;
import dev.brisk.ops.image.FactorRange;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import java.util.Map;

/**
 * Keras' {@code RandomRotation} layer: in training rotates each image about its centre by a fraction of a full turn
 * drawn from {@code [lower, upper]} (the pipeline map function's math, {@link
 * dev.brisk.data.preprocessing.RandomRotation}); the identity outside training. Keras' defaults: {@code reflect}
 * fill, bilinear interpolation, fill value 0.
 */
public final class RandomRotation extends AffineImageLayer {
    private static final String WHO = "RandomRotation";
    private final FactorRange factor;

    /**
     * A rotation layer.
     *
     * @param lower the lowest fraction of a turn (negative is clockwise)
     * @param upper the highest fraction
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     * @param name the layer's name, or null for an automatic one
     */
    public RandomRotation(double lower, double upper, FillMode fillMode, float fillValue, Interpolation interpolation,
            String name) {
        this(FactorRange.of(lower, upper, -Double.MAX_VALUE, Double.MAX_VALUE, WHO, "factor"), fillMode, fillValue,
                interpolation, name);
    }

    private RandomRotation(FactorRange factor, FillMode fillMode, float fillValue, Interpolation interpolation,
            String name) {
        super(WHO, AffineMaps.rotations(factor), fillMode, fillValue, interpolation, name);
        this.factor = factor;
    }

    @Override
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = super.kerasConfig();
        c.put("factor", factor(factor));
        return c;
    }
}
