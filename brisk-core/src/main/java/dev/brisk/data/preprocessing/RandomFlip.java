package dev.brisk.data.preprocessing;

import dev.brisk.data.RandomTransform;
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

    private final Mode mode;
    private final long seed;

    /**
     * Random flips of {@code mode} whose draws derive from {@code seed}.
     *
     * @param mode which flips to draw
     * @param seed the seed
     */
    public RandomFlip(Mode mode, long seed) {
        this.mode = mode;
        this.seed = seed;
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public Tensor apply(Tensor x, SplittableRandom random) {
        ImageShape s = ImageShape.of(x, "RandomFlip");
        float[] in = x.data();
        float[] out = new float[x.size()];
        int h = s.height();
        int w = s.width();
        int c = s.channels();
        for (int n = 0; n < s.images(); n++) {
            boolean lr = mode != Mode.VERTICAL && random.nextBoolean();
            boolean tb = mode != Mode.HORIZONTAL && random.nextBoolean();
            int base = n * s.imageSize();
            for (int y = 0; y < h; y++) {
                int sy = tb ? h - 1 - y : y;
                for (int xx = 0; xx < w; xx++) {
                    int sx = lr ? w - 1 - xx : xx;
                    System.arraycopy(in, x.offset() + base + (sy * w + sx) * c, out, base + (y * w + xx) * c, c);
                }
            }
        }
        return Tensor.wrap(out, 0, x.shape());
    }
}
