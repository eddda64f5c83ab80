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
 * Keras' {@code RandomRotation} in training: rotates each image about its centre by an angle drawn uniformly from
 * {@code [lower * 2 pi, upper * 2 pi]} (Keras' {@code factor} is a fraction of a full turn; a single {@code f}
 * means {@code [-f, f]}; positive is counter-clockwise). As in Keras, output pixel {@code (x, y)} reads input
 * {@code (cx + cos a (x - cx) - sin a (y - cy), cy + sin a (x - cx) + cos a (y - cy))} with
 * {@code (cx, cy) = ((w - 1) / 2, (h - 1) / 2)}, through {@link FillMode} (Keras' default {@code reflect}) and
 * {@link Interpolation} (default bilinear). One draw per image of a batch, from the pipeline's per-element generator.
 * A pipeline map: put it in the training pipeline only (Keras' layer is the identity outside training).
 */
public final class RandomRotation implements RandomTransform<Tensor, Tensor> {
    private static final String WHO = "RandomRotation";
    private final AffineSampler sampler;
    private final ImageAugment augment;
    private final long seed;

    /**
     * Rotations by up to {@code factor} of a full turn either way, Keras' defaults otherwise (reflect, bilinear).
     *
     * @param factor the largest fraction of a turn, at least 0
     * @param seed the seed
     */
    public RandomRotation(double factor, long seed) {
        this(-factor, factor, FillMode.REFLECT, 0f, Interpolation.BILINEAR, seed);
    }

    /**
     * Rotations by {@code [lower, upper]} fractions of a full turn.
     *
     * @param lower the lowest fraction (negative is clockwise)
     * @param upper the highest fraction
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     * @param seed the seed
     */
    public RandomRotation(double lower, double upper, FillMode fillMode, float fillValue, Interpolation interpolation,
            long seed) {
        FactorRange factor = FactorRange.of(lower, upper, -Double.MAX_VALUE, Double.MAX_VALUE, WHO, "factor");
        this.sampler = new AffineSampler(fillMode, fillValue, interpolation);
        this.augment = ImageAugment.affine(WHO, sampler, AffineMaps.rotations(factor));
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
     * Rotates every image of {@code x} by {@code angle} radians, without drawing: the transformation a draw of
     * {@code angle} applies.
     *
     * @param x one image {@code (h, w, c)} or a batch
     * @param angle the angle in radians, positive counter-clockwise
     * @return the rotated images
     */
    public Tensor rotate(Tensor x, double angle) {
        return ImageShape.apply(x, WHO, ImageAugment.affine(WHO, sampler,
                AffineMaps.fixed((h, w) -> AffineMaps.rotation(angle, h, w))), null);
    }
}
