package dev.brisk.ops.image;

import dev.brisk.parallel.Parallel;
import dev.brisk.parallel.RangeBody;
import java.util.SplittableRandom;

/**
 * A batch of images augmented from one seed, the images split over the thread budget: each chunk of images starts
 * its own generator from the seed and makes the draws of the images before it ({@link ImageAugment#skip}) before
 * transforming its own, so every image gets the draw it gets when one thread transforms the batch in order, and the
 * result does not depend on the number of threads or where the chunks fall. The draws are a few numbers an image
 * against a read of every pixel, so the skipped draws cost little; this is the IMAGE_AUGMENT op's kernel.
 */
public final class AugmentBatch {
    /** Pixels per chunk at least (about 20 images of 28 x 28): below this a chunk costs less than its hand-off. */
    private static final int MIN_CHUNK_PIXELS = 16_384;

    private AugmentBatch() {
    }

    /**
     * Transforms {@code images} images, image {@code n} by the {@code n}-th draw from
     * {@code new SplittableRandom(seed)}.
     *
     * @param a the augmentation
     * @param seed the generator's seed
     * @param x the source images {@code (images, h, w, c)}
     * @param xOff index of the first element
     * @param y receives the transformed images
     * @param yOff index of the first element
     * @param images the number of images
     * @param h the height
     * @param w the width
     * @param c the channels
     */
    public static void forward(ImageAugment a, long seed, float[] x, int xOff, float[] y, int yOff, int images,
            int h, int w, int c) {
        int size = h * w * c;
        split(images, h * w, (n0, n1) -> {
            SplittableRandom random = at(a, seed, n0, h, w);
            for (int n = n0; n < n1; n++) {
                a.forward(x, xOff + n * size, y, yOff + n * size, h, w, c, random);
            }
        });
    }

    /**
     * The gradient of {@link #forward} for the same seed, {@code dx} overwritten.
     *
     * @param a the augmentation
     * @param seed the generator's seed
     * @param x the source images {@code (images, h, w, c)}
     * @param xOff index of the first element
     * @param dy the gradient with respect to the transformed images
     * @param dyOff index of its first element
     * @param dx receives the gradient with respect to {@code x}
     * @param dxOff index of its first element
     * @param images the number of images
     * @param h the height
     * @param w the width
     * @param c the channels
     */
    public static void backward(ImageAugment a, long seed, float[] x, int xOff, float[] dy, int dyOff, float[] dx,
            int dxOff, int images, int h, int w, int c) {
        int size = h * w * c;
        split(images, h * w, (n0, n1) -> {
            SplittableRandom random = at(a, seed, n0, h, w);
            for (int n = n0; n < n1; n++) {
                a.backward(x, xOff + n * size, dy, dyOff + n * size, dx, dxOff + n * size, h, w, c, random);
            }
        });
    }

    /** The generator of {@code seed} as it stands before image {@code n}'s draws. */
    private static SplittableRandom at(ImageAugment a, long seed, int n, int h, int w) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            a.skip(random, h, w);
        }
        return random;
    }

    /** Runs {@code body} over {@code [0, images)}: on this thread when the batch is small or a region is running. */
    private static void split(int images, int pixels, RangeBody body) {
        int grain = Math.max(1, MIN_CHUNK_PIXELS / Math.max(1, pixels));
        if (images < 2 * grain || Parallel.insideRegion() || Parallel.threads() == 1) {
            body.run(0, images);
        } else {
            Parallel.forRange(images, grain, body);
        }
    }
}
