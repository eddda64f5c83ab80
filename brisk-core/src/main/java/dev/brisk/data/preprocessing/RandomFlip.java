package dev.brisk.data.preprocessing;

import dev.brisk.data.RandomTransform;
import dev.brisk.ops.image.AffineMaps;
import dev.brisk.ops.image.AffineSampler;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.ImageAugment;
import dev.brisk.ops.image.Interpolation;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;

/**
 * Keras' {@code RandomFlip}: flips each image left-right, top-bottom or both, each with probability 1/2, drawing
 * from the generator the pipeline gives each element (so a seed fixes the flips whatever the thread count). Takes
 * one image {@code (h, w, c)} or a batch {@code (n, h, w, c)} (one draw per image).
 */
public final class RandomFlip implements RandomTransform<Tensor, Tensor> {
    /** Which flips may happen. */
    public enum Mode {
        /** Left-right (along the width). */
        HORIZONTAL,
        /** Top-bottom (along the height). */
        VERTICAL,
        /** Both, independently. */
        HORIZONTAL_AND_VERTICAL
    }

    private final ImageAugment augment;
    private final long seed;

    /**
     * Random flips of {@code mode} whose draws derive from {@code seed}.
     *
     * @param mode which flips to draw
     * @param seed the seed
     */
    public RandomFlip(Mode mode, long seed) {
        this.augment = augment(mode);
        this.seed = seed;
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public Tensor apply(Tensor x, SplittableRandom random) {
        return ImageShape.apply(x, "RandomFlip", augment, random);
    }

    /**
     * The flips of {@code mode} as an augmentation: an affine map with whole-pixel coordinates, so each output pixel
     * is a copy of one input pixel.
     *
     * @param mode which flips may happen
     * @return the augmentation
     */
    public static ImageAugment augment(Mode mode) {
        return ImageAugment.affine("RandomFlip", new AffineSampler(FillMode.CONSTANT, 0f, Interpolation.NEAREST),
                AffineMaps.flips(mode != Mode.VERTICAL, mode != Mode.HORIZONTAL));
    }
}
