package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;

/** Test data shaped like raw images: random whole-number pixels in [0, 255] and class labels 0..9. */
public final class TestPixels {
    private TestPixels() {
    }

    /** {@code samples} rows of {@code features} pixels, and their labels, drawn from {@code seed}. */
    public static InMemoryDataset random(int samples, int features, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[samples * features];
        float[] y = new float[samples];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextInt(256);
        }
        for (int i = 0; i < y.length; i++) {
            y[i] = r.nextInt(10);
        }
        return new InMemoryDataset(Tensor.of(x, samples, features), Tensor.of(y, samples));
    }
}
