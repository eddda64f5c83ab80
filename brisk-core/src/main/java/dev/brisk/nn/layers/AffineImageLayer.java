package dev.brisk.nn.layers;

import dev.brisk.ops.image.AffineSampler;
import dev.brisk.ops.image.FactorRange;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.ImageAugment;
import dev.brisk.ops.image.Interpolation;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The geometric augmentation layers (RandomRotation, RandomZoom, RandomTranslation): each image read through a drawn
 * affine map, with Keras' {@code fill_mode}, {@code fill_value} and {@code interpolation}.
 */
public abstract class AffineImageLayer extends RandomImageLayer {
    private final FillMode fillMode;
    private final float fillValue;
    private final Interpolation interpolation;

    /**
     * A layer reading each image through a map drawn by {@code draw}.
     *
     * @param who Keras' class name
     * @param draw one image's map from the generator
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     * @param name the layer's name, or null for an automatic one
     */
    protected AffineImageLayer(String who, ImageAugment.AffineDraw draw, FillMode fillMode, float fillValue,
            Interpolation interpolation, String name) {
        super(ImageAugment.affine(who, new AffineSampler(fillMode, fillValue, interpolation), draw), name);
        this.fillMode = fillMode;
        this.fillValue = fillValue;
        this.interpolation = interpolation;
    }

    /** A drawn range as the {@code [lower, upper]} list Keras writes, or null for an absent one. */
    static List<Double> factor(FactorRange range) {
        return range == null ? null : pair(range.lower(), range.upper());
    }

    @Override
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = super.kerasConfig();
        c.put("fill_mode", fillMode.name().toLowerCase(Locale.ROOT));
        c.put("interpolation", interpolation.name().toLowerCase(Locale.ROOT));
        c.put("fill_value", fillValue);
        return c;
    }
}
