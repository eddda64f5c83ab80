package dev.brisk.nn.layers;

import dev.brisk.ops.image.AffineMaps;
import dev.brisk.ops.image.FactorRange;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import java.util.Map;

/**
 * Keras' {@code RandomTranslation} layer: in training shifts each image by a draw from {@code height_factor} times
 * its height (down) and one from {@code width_factor} times its width (right) (the pipeline map function's math,
 * {@link dev.brisk.data.preprocessing.RandomTranslation}); the identity outside training. Keras' defaults:
 * {@code reflect} fill, bilinear interpolation, fill value 0.
 */
public final class RandomTranslation extends AffineImageLayer {
    private static final String WHO = "RandomTranslation";
    private final FactorRange height;
    private final FactorRange width;

    /**
     * A translation layer.
     *
     * @param height the vertical fractions {@code {lower, upper}} in [-1, 1]
     * @param width the horizontal fractions {@code {lower, upper}} in [-1, 1]
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     * @param name the layer's name, or null for an automatic one
     */
    public RandomTranslation(double[] height, double[] width, FillMode fillMode, float fillValue,
            Interpolation interpolation, String name) {
        this(FactorRange.fractions(height, WHO, "height_factor"), FactorRange.fractions(width, WHO, "width_factor"),
                fillMode, fillValue, interpolation, name);
    }

    private RandomTranslation(FactorRange height, FactorRange width, FillMode fillMode, float fillValue,
            Interpolation interpolation, String name) {
        super(WHO, AffineMaps.translations(height, width), fillMode, fillValue, interpolation, name);
        this.height = height;
        this.width = width;
    }

    @Override
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = super.kerasConfig();
        c.put("height_factor", factor(height));
        c.put("width_factor", factor(width));
        return c;
    }
}
