package dev.brisk.backend.jvm;

/**
 * The dropout mask (and GaussianNoise's normal draws) as a pure function of (seed, element index): a SplitMix64 hash
 * of a counter, so any thread can draw any element, the result does not depend on the thread count, and both
 * backends draw the same mask.
 */
final class DropoutMask {
    /** The counter's step (2^64 over the golden ratio), SplitMix64's increment. */
    static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** The multipliers of {@link #mix}'s two rounds. */
    static final long MIX1 = 0xBF58476D1CE4E5B9L;
    static final long MIX2 = 0x94D049BB133111EBL;
    /** Keeps the normal draws' stream apart from the masks' for the same seed. */
    private static final long NORMAL_STREAM = 0x6A09E667F3BCC909L;

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

    /**
     * The least 24-bit draw {@code bits >>> 40} that {@link #kept} keeps at {@code rate}: the draw's uniform
     * {@code d * 2^-24} is at least {@code rate} exactly when {@code d >= rate * 2^24} (both sides scaled by a power
     * of two, so exactly), that is when {@code d} is at least that product rounded up. Lets a vector kernel decide
     * in integer lanes with the same bits, without converting each draw to a float.
     */
    static long threshold(float rate) {
        return (long) Math.ceil(rate * 0x1.0p24);
    }

    /**
     * A standard normal draw for element {@code i}, by Box-Muller from two uniforms of its own (counters
     * {@code 2i + 1} and {@code 2i + 2} of a stream keyed apart from the dropout masks'), in double.
     */
    static double normal(long key, long i) {
        long k = mix(key ^ NORMAL_STREAM);
        double u1 = ((mix(k + (2 * i + 1) * GOLDEN) >>> 11) + 1) * 0x1.0p-53; // (0, 1]: log(u1) is finite
        double u2 = (mix(k + (2 * i + 2) * GOLDEN) >>> 11) * 0x1.0p-53;
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * MIX1;
        z = (z ^ (z >>> 27)) * MIX2;
        return z ^ (z >>> 31);
    }
}
