package dev.brisk.bench;

import java.util.SplittableRandom;

/** Seeded random operands for the microbenchmarks. */
final class BenchArrays {
    private BenchArrays() {
    }

    /** {@code size} floats uniform in [-1, 1). */
    static float[] random(SplittableRandom r, int size) {
        float[] v = new float[size];
        for (int i = 0; i < size; i++) {
            v[i] = (float) r.nextDouble(-1, 1);
        }
        return v;
    }
}
