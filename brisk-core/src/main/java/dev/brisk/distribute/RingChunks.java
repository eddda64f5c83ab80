package dev.brisk.distribute;

/**
 * How a vector of {@code length} floats is cut into one chunk per rank: the first {@code length % ranks} chunks are
 * one longer, so sizes differ by at most one and any length (odd, shorter than the ring) works; a chunk may be
 * empty.
 */
final class RingChunks {
    private RingChunks() {
    }

    /** Start of chunk {@code c} (0 &lt;= c &lt;= ranks; {@code c == ranks} gives the end). */
    static int start(int length, int ranks, int c) {
        int base = length / ranks;
        int extra = length % ranks;
        return c * base + Math.min(c, extra);
    }

    /** Length of chunk {@code c}. */
    static int length(int length, int ranks, int c) {
        return start(length, ranks, c + 1) - start(length, ranks, c);
    }

    /** {@code a mod n} in {@code [0, n)}. */
    static int mod(int a, int n) {
        int m = a % n;
        return m < 0 ? m + n : m;
    }
}
