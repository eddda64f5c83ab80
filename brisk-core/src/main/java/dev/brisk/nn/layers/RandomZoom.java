package dev.brisk.nn.layers;

import dev.brisk.ops.image.AffineMaps;
import dev.brisk.ops.image.FactorRange;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import java.util.Map;

/**
 * Keras' {@code RandomZoom} layer: in training zooms each image about its centre, the height by {@code 1 +} a draw
 * from {@code height_factor} (positive zooms out) and the width by one from {@code width_factor}, or by the height's
 * zoom when it is absent (the pipeline map function's math, {@link dev.brisk.data.preprocessing.RandomZoom}); the
 * identity outside training. Keras' defaults: {@code reflect} fill, bilinear interpolation, fill value 0.
 */
public final class RandomZoom extends AffineImageLayer {
    private static final String WHO = "RandomZoom";
    private final FactorRange height;
    private final FactorRange width;

    /**
     * A zoom layer.
     *
     * @param height the height fractions {@code {lower, upper}} in [-1, 1]
     * @param width the width fractions {@code {lower, upper}} in [-1, 1], or null to keep the aspect
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     * @param name the layer's name, or null for an automatic one
     */
    public RandomZoom(double[] height, double[] width, FillMode fillMode, float fillValue,
            Interpolation interpolation, String name) {
        this(FactorRange.fractions(height, WHO, "height_factor"),
                width == null ? null : FactorRange.fractions(width, WHO, "width_factor"),
                fillMode, fillValue, interpolation, name);
    }

    private RandomZoom(FactorRange height, FactorRange width, FillMode fillMode, float fillValue,
            Interpolation interpolation, String name) {
        super(WHO, AffineMaps.zooms(height, width), fillMode, fillValue, interpolation, name);
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
