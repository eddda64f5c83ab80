package dev.brisk.data.preprocessing;

import dev.brisk.data.RandomTransform;
import dev.brisk.ops.image.ContrastAugment;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;

/**
 * Keras' {@code RandomContrast} in training: for each image a contrast factor {@code k} is drawn from
 * {@code [1 - lower, 1 + upper]} (Keras' {@code factor}; a single {@code f} in [0, 1] means {@code [1 - f, 1 + f]})
 * and each channel becomes {@code (x - mean) * k + mean}, {@code mean} that channel's mean over the image, clipped
 * to Keras' {@code value_range} (default {@code [0, 255]}). One draw per image, from the pipeline's per-element
 * generator. A pipeline map: put it in the training pipeline only (Keras' layer is the identity outside training).
 */
public final class RandomContrast implements RandomTransform<Tensor, Tensor> {
    private static final String WHO = "RandomContrast";
    private final ContrastAugment augment;
    private final long seed;

    /**
     * Contrast factors in {@code [1 - factor, 1 + factor]}, values clipped to [0, 255].
     *
     * @param factor in [0, 1]
     * @param seed the seed
     */
    public RandomContrast(double factor, long seed) {
        this(factor, factor, 0f, 255f, seed);
    }

    /**
     * Contrast factors in {@code [1 - lower, 1 + upper]}, values clipped to {@code [low, high]}.
     *
     * @param lower how far below 1 the factor may go, in [0, 1]
     * @param upper how far above 1 it may go, at least 0
     * @param low the lowest output value (Keras' {@code value_range[0]})
     * @param high the highest output value
     * @param seed the seed
     */
    public RandomContrast(double lower, double upper, float low, float high, long seed) {
        this.augment = new ContrastAugment(lower, upper, low, high);
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
     * Applies contrast factor {@code k[n]} to image {@code n} of {@code x}, without drawing.
     *
     * @param x one image {@code (h, w, c)} or a batch
     * @param k one factor per image
     * @return the adjusted images
     */
    public Tensor adjust(Tensor x, float... k) {
        ImageShape s = ImageShape.of(x, WHO);
        if (k.length != s.images()) {
            throw new IllegalArgumentException(WHO + ": " + k.length + " factors for " + s.images() + " images");
        }
        float[] out = new float[x.size()];
        for (int n = 0; n < s.images(); n++) {
            augment.adjust(x.data(), x.offset() + n * s.imageSize(), out, n * s.imageSize(),
                    s.height() * s.width(), s.channels(), k[n]);
        }
        return Tensor.wrap(out, 0, x.shape());
    }
}
