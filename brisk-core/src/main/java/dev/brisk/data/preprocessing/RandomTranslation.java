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
 * Keras' {@code RandomTranslation} in training: shifts each image by {@code dy = u * h} pixels down and
 * {@code dx = v * w} right, {@code u} drawn from the height factor's range and then {@code v} from the width's
 * (fractions in {@code [-1, 1]}; a single {@code f} means {@code [-f, f]}). Output pixel {@code (x, y)} reads input
 * {@code (x - dx, y - dy)}, through {@link FillMode} (default reflect) and {@link Interpolation} (default bilinear).
 * One draw per image, from the pipeline's per-element generator. A pipeline map: put it in the training pipeline
 * only (Keras' layer is the identity outside training).
 */
public final class RandomTranslation implements RandomTransform<Tensor, Tensor> {
    private static final String WHO = "RandomTranslation";
    private final AffineSampler sampler;
    private final ImageAugment augment;
    private final long seed;

    /**
     * Shifts by up to {@code heightFactor} of the height and {@code widthFactor} of the width either way, Keras'
     * defaults otherwise.
     *
     * @param heightFactor the largest vertical shift as a fraction of the height, in [0, 1]
     * @param widthFactor the largest horizontal shift as a fraction of the width, in [0, 1]
     * @param seed the seed
     */
    public RandomTranslation(double heightFactor, double widthFactor, long seed) {
        this(new double[] {-heightFactor, heightFactor}, new double[] {-widthFactor, widthFactor}, FillMode.REFLECT,
                0f, Interpolation.BILINEAR, seed);
    }

    /**
     * Shifts with fractions drawn from {@code heightRange} and {@code widthRange}, each {@code {lower, upper}}.
     *
     * @param heightRange vertical fractions {@code {lower, upper}} in [-1, 1] (positive moves the image down)
     * @param widthRange horizontal fractions {@code {lower, upper}} in [-1, 1] (positive moves it right)
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     * @param seed the seed
     */
    public RandomTranslation(double[] heightRange, double[] widthRange, FillMode fillMode, float fillValue,
            Interpolation interpolation, long seed) {
        FactorRange heightFactor = FactorRange.fractions(heightRange, WHO, "height_factor");
        FactorRange widthFactor = FactorRange.fractions(widthRange, WHO, "width_factor");
        this.sampler = new AffineSampler(fillMode, fillValue, interpolation);
        this.augment = ImageAugment.affine(WHO, sampler, AffineMaps.translations(heightFactor, widthFactor));
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
     * Shifts every image of {@code x} by {@code dy} pixels down and {@code dx} right, without drawing.
     *
     * @param x one image {@code (h, w, c)} or a batch
     * @param dy the vertical shift in pixels
     * @param dx the horizontal shift in pixels
     * @return the shifted images
     */
    public Tensor translate(Tensor x, double dy, double dx) {
        return ImageShape.apply(x, WHO, ImageAugment.affine(WHO, sampler,
                AffineMaps.fixed((h, w) -> AffineMaps.translation(dy, dx))), null);
    }
}
