package dev.brisk.distribute;

/**
 * The ring all-reduce's sum computed directly, for replicas that share one process: the same chunks and the same
 * order of additions as {@link RingAllReduce#sum}, so in-process replicas and replicas on separate machines give
 * the same bits.
 */
public final class RingOrder {
    private RingOrder() {
    }

    /**
     * Writes into {@code out[0, length)} the sum of {@code parts[k][0, length)} over {@code k}, chunk {@code c} of
     * {@code parts.length} chunks added in the order {@code c, c + 1, ..., c - 1}, as the ring does.
     *
     * @param parts one vector per rank, at least {@code length} long each
     * @param out where the sum goes (may be one of the parts)
     * @param from first index to compute (inclusive), so that callers can split the work over threads
     * @param to last index to compute (exclusive)
     * @param length the vectors' length, which decides the chunks
     */
    public static void sum(float[][] parts, float[] out, int from, int to, int length) {
        int n = parts.length;
        for (int c = 0; c < n; c++) {
            int start = Math.max(from, RingChunks.start(length, n, c));
            int end = Math.min(to, RingChunks.start(length, n, c + 1));
            if (start >= end) {
                continue;
            }
            for (int i = start; i < end; i++) {
                float acc = parts[c][i];
                for (int k = 1; k < n; k++) {
                    acc = acc + parts[(c + k) % n][i];
                }
                out[i] = acc;
            }
        }
    }
}
