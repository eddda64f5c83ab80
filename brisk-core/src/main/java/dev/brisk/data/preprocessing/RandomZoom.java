package dev.brisk.data.preprocessing;

import dev.brisk.data.RandomTransform;
import dev.brisk.ops.image.AffineMaps;
import dev.brisk.ops.image.AffineSampler;
import dev.brisk.ops.image.FactorRange;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.ImageAugment;
import dev.brisk.ops.image.Interpolation;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;

/**
 * Keras' {@code RandomZoom} in training: scales each image about its centre. Keras' factors are fractions in
 * {@code [-1, 1]}: the height zoom is drawn from {@code [1 + lower, 1 + upper]} and, as in Keras, a positive factor
 * zooms out (the image shrinks, the border is filled) and a negative one zooms in. Without a width factor the width
 * zoom is the height zoom (aspect kept); with one it is drawn after the height's. Output pixel {@code (x, y)} reads
 * input {@code (cx + zw (x - cx), cy + zh (y - cy))}, through {@link FillMode} (default reflect) and
 * {@link Interpolation} (default bilinear). One draw per image, from the pipeline's per-element generator. A pipeline
 * map: put it in the training pipeline only (Keras' layer is the identity outside training).
 */
public final class RandomZoom implements RandomTransform<Tensor, Tensor> {
    private static final String WHO = "RandomZoom";
    private final AffineSampler sampler;
    private final ImageAugment augment;
    private final long seed;

    /**
     * Zooms by up to {@code heightFactor} either way with the aspect kept, Keras' defaults otherwise.
     *
     * @param heightFactor the largest zoom fraction, in [0, 1]
     * @param seed the seed
     */
    public RandomZoom(double heightFactor, long seed) {
        this(-heightFactor, heightFactor, null, FillMode.REFLECT, 0f, Interpolation.BILINEAR, seed);
    }

    /**
     * Zooms with height fractions in {@code [heightLower, heightUpper]} and width fractions in {@code widthRange}
     * ({@code {lower, upper}}), or the height's zoom when {@code widthRange} is null.
     *
     * @param heightLower the lowest height fraction, at least -1
     * @param heightUpper the highest height fraction, at most 1
     * @param widthRange the width fractions {@code {lower, upper}} in [-1, 1], or null to keep the aspect
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     * @param seed the seed
     */
    public RandomZoom(double heightLower, double heightUpper, double[] widthRange, FillMode fillMode, float fillValue,
            Interpolation interpolation, long seed) {
        FactorRange heightFactor = FactorRange.of(heightLower, heightUpper, -1, 1, WHO, "height_factor");
        FactorRange widthFactor = widthRange == null ? null : FactorRange.fractions(widthRange, WHO, "width_factor");
        this.sampler = new AffineSampler(fillMode, fillValue, interpolation);
        this.augment = ImageAugment.affine(WHO, sampler, AffineMaps.zooms(heightFactor, widthFactor));
        this.seed = seed;
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public Tensor apply(Tensor x, SplittableRandom random) {
        return ImageShape.apply(x, WHO, augment, random);
    }

    /**
     * Zooms every image of {@code x} by the given factors, without drawing.
     *
     * @param x one image {@code (h, w, c)} or a batch
     * @param heightZoom the height zoom (1 + the drawn fraction; above 1 zooms out)
     * @param widthZoom the width zoom
     * @return the zoomed images
     */
    public Tensor zoom(Tensor x, double heightZoom, double widthZoom) {
        return ImageShape.apply(x, WHO, ImageAugment.affine(WHO, sampler,
                AffineMaps.fixed((h, w) -> AffineMaps.zoom(heightZoom, widthZoom, h, w))), null);
    }
}
