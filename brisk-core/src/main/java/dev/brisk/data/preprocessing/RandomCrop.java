package dev.brisk.data.preprocessing;

import dev.brisk.data.RandomTransform;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;

/**
 * Keras' {@code RandomCrop} in training: a {@code height} x {@code width} window at a random place of each image,
 * drawing from the generator the pipeline gives each element. Takes one image {@code (h, w, c)} or a batch
 * {@code (n, h, w, c)} (one window per image). Images smaller than the window are refused (resize them first)
 * rather than stretched.
 */
public final class RandomCrop implements RandomTransform<Tensor, Tensor> {
    private final int height;
    private final int width;
    private final long seed;

    /**
     * Random {@code height} x {@code width} crops whose places derive from {@code seed}.
     *
     * @param height crop height in pixels
     * @param width crop width in pixels
     * @param seed the seed
     */
    public RandomCrop(int height, int width, long seed) {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("crop size must be positive, got " + height + "x" + width);
        }
        this.height = height;
        this.width = width;
        this.seed = seed;
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public Tensor apply(Tensor x, SplittableRandom random) {
        ImageShape s = ImageShape.of(x, "RandomCrop");
        if (s.height() < height || s.width() < width) {
            throw new IllegalArgumentException("RandomCrop(" + height + ", " + width + ") needs images at least "
                    + height + "x" + width + " (height x width), got " + s.height() + "x" + s.width());
        }
        int c = s.channels();
        int row = width * c;
        float[] in = x.data();
        float[] out = new float[s.images() * height * row];
        for (int n = 0; n < s.images(); n++) {
            int top = random.nextInt(s.height() - height + 1);
            int left = random.nextInt(s.width() - width + 1);
            int src = x.offset() + n * s.imageSize();
            for (int y = 0; y < height; y++) {
                System.arraycopy(in, src + ((top + y) * s.width() + left) * c, out, (n * height + y) * row, row);
            }
        }
        int[] dims = x.shape().dims();
        dims[dims.length - 3] = height;
        dims[dims.length - 2] = width;
        return Tensor.wrap(out, 0, dev.brisk.tensor.Shape.of(dims));
    }
}
