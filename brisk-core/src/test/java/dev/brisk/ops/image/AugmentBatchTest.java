package dev.brisk.ops.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.parallel.Parallel;
import dev.brisk.parallel.ThreadBudget;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The augmentation kernel split over threads gives every image the draw it gets when one thread transforms the
 * batch in order: forward and gradient, the same bits at 1, 2 and 3 threads as the sequential loop, for every
 * augmentation (each makes a different number of draws an image).
 */
class AugmentBatchTest {
    private static final int IMAGES = 128;
    private static final int H = 28;
    private static final int W = 28;
    private static final int C = 1;

    private static List<ImageAugment> augments() {
        AffineSampler bilinear = new AffineSampler(FillMode.REFLECT, 0f, Interpolation.BILINEAR);
        FactorRange range = new FactorRange(-0.2, 0.3);
        return List.of(
                ImageAugment.affine("RandomFlip", new AffineSampler(FillMode.CONSTANT, 0f, Interpolation.NEAREST),
                        AffineMaps.flips(true, true)),
                ImageAugment.affine("RandomRotation", bilinear, AffineMaps.rotations(range)),
                ImageAugment.affine("RandomZoom", bilinear, AffineMaps.zooms(range, new FactorRange(-0.1, 0.1))),
                ImageAugment.affine("RandomTranslation", new AffineSampler(FillMode.CONSTANT, 0.5f,
                        Interpolation.NEAREST), AffineMaps.translations(range, range)),
                new ContrastAugment(0.2, 0.4, -1f, 1f));
    }

    private static float[] random(SplittableRandom r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) r.nextDouble(-1, 1);
        }
        return v;
    }

    @Test
    void sameBitsAsOneThreadInOrder() {
        SplittableRandom r = new SplittableRandom(5);
        int size = IMAGES * H * W * C;
        float[] x = random(r, size);
        float[] dy = random(r, size);
        long seed = 77;
        for (ImageAugment a : augments()) {
            float[] y = new float[size];
            float[] dx = new float[size];
            ImageAugment.forwardAll(a, new SplittableRandom(seed), x, 0, y, 0, IMAGES, H, W, C);
            ImageAugment.backwardAll(a, new SplittableRandom(seed), x, 0, dy, 0, dx, 0, IMAGES, H, W, C);
            for (int threads = 1; threads <= 3; threads++) {
                float[] ySplit = random(r, size);
                float[] dxSplit = random(r, size);
                ThreadBudget.set(threads);
                try {
                    assertEquals(threads, Parallel.threads());
                    AugmentBatch.forward(a, seed, x, 0, ySplit, 0, IMAGES, H, W, C);
                    AugmentBatch.backward(a, seed, x, 0, dy, 0, dxSplit, 0, IMAGES, H, W, C);
                } finally {
                    ThreadBudget.reset();
                }
                assertArrayEquals(y, ySplit, a.name() + " forward at " + threads + " threads");
                assertArrayEquals(dx, dxSplit, a.name() + " gradient at " + threads + " threads");
            }
        }
    }
}
