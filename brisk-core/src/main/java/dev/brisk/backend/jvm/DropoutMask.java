package dev.brisk.backend.jvm;

/**
 * The dropout mask as a pure function of (seed, element index): a SplitMix64 hash of a counter, so any thread can
 * draw any element, the result does not depend on the thread count, and both backends draw the same mask.
 */
final class DropoutMask {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private DropoutMask() {
    }

    /** Scrambles a user seed so that nearby seeds give unrelated streams. */
    static long key(long seed) {
        return mix(seed + GOLDEN);
    }

    /** Whether element {@code i} is kept: its uniform draw in [0, 1) is at least {@code rate}. */
    static boolean kept(long key, long i, float rate) {
        long bits = mix(key + (i + 1) * GOLDEN);
        float u = (bits >>> 40) * 0x1.0p-24f;
        return u >= rate;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
