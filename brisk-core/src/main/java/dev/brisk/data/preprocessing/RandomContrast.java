package dev.brisk.data.preprocessing;

import dev.brisk.data.RandomTransform;
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
    private final FactorRange factor;
    private final float low;
    private final float high;
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
        if (!(lower >= 0 && lower <= 1) || !(upper >= 0) || !Double.isFinite(upper)) {
            throw new IllegalArgumentException(WHO + ": factor must be (lower, upper) with lower in [0, 1] and "
                    + "upper >= 0, got (" + lower + ", " + upper + ")");
        }
        if (!(low < high)) {
            throw new IllegalArgumentException(WHO + ": value_range must be (low, high) with low < high, got ("
                    + low + ", " + high + ")");
        }
        this.factor = new FactorRange(1 - lower, 1 + upper);
        this.low = low;
        this.high = high;
        this.seed = seed;
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public Tensor apply(Tensor x, SplittableRandom random) {
        ImageShape s = ImageShape.of(x, WHO);
        float[] k = new float[s.images()];
        for (int n = 0; n < k.length; n++) {
            k[n] = (float) factor.draw(random);
        }
        return adjust(x, k);
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
        int c = s.channels();
        int pixels = s.height() * s.width();
        float[] in = x.data();
        float[] out = new float[x.size()];
        for (int n = 0; n < s.images(); n++) {
            int base = n * s.imageSize();
            for (int ch = 0; ch < c; ch++) {
                double sum = 0;
                for (int p = 0; p < pixels; p++) {
                    sum += in[x.offset() + base + p * c + ch];
                }
                float mean = (float) (sum / pixels);
                for (int p = 0; p < pixels; p++) {
                    int i = base + p * c + ch;
                    float v = (in[x.offset() + i] - mean) * k[n] + mean;
                    out[i] = Math.min(Math.max(v, low), high);
                }
            }
        }
        return Tensor.wrap(out, 0, x.shape());
    }
}
