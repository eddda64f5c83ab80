package dev.brisk.distribute;

import java.io.IOException;

/**
 * The ring all-reduce (Patarasuk and Yuan; Baidu's and Horovod's): a reduce-scatter of {@code N - 1} steps in which
 * every rank sends one chunk to the next rank and adds the chunk it receives, then an all-gather of {@code N - 1}
 * steps that passes the finished chunks around. Each rank sends and receives {@code 2 (N - 1) / N} of the vector,
 * whatever {@code N}.
 *
 * <p>The order of the additions is fixed: chunk {@code c} is summed as the left fold
 * {@code ((g[c] + g[c+1]) + g[c+2]) + ... + g[c-1]} over the ranks' values (indexes modulo {@code N}), and every rank
 * ends with the same bits of that sum. So a run repeats bit for bit, and {@link RingOrder#sum} computes the same
 * bits in one process.
 */
public final class RingAllReduce {
    private final RingTransport ring;
    private float[] scratch = new float[0];

    /**
     * An all-reduce over {@code ring}.
     *
     * @param ring this rank's links
     */
    public RingAllReduce(RingTransport ring) {
        this.ring = ring;
    }

    /**
     * The transport this all-reduce runs over.
     *
     * @return the ring
     */
    public RingTransport transport() {
        return ring;
    }

    /**
     * Replaces {@code data[offset, offset + length)} on every rank by the element-wise sum over the ranks. All
     * ranks must call it with the same length.
     *
     * @param data this rank's values, overwritten with the sum
     * @param offset where they start
     * @param length how many floats (any number, 0 included)
     * @throws IOException when a peer fails or times out (the data is then partly reduced)
     */
    public void sum(float[] data, int offset, int length) throws IOException {
        sum(data, offset, length, 0, length);
    }

    /**
     * Sums only the elements {@code [from, to)} of the vector {@code data[offset, offset + length)}, each added in
     * the order {@link #sum(float[], int, int)} of the whole vector would add it (the vector's chunks decide the
     * order, so they are cut from the whole length): reducing a vector bucket by bucket gives the same bits as
     * reducing it at once. All ranks must call it with the same arguments but {@code data}.
     *
     * @param data this rank's values; {@code [offset + from, offset + to)} is overwritten with the sum
     * @param offset where the vector starts
     * @param length the whole vector's length, which decides the chunks
     * @param from the first element to reduce, relative to {@code offset}
     * @param to the end of the elements to reduce (exclusive)
     * @throws IOException when a peer fails or times out (the data is then partly reduced)
     */
    public void sum(float[] data, int offset, int length, int from, int to) throws IOException {
        int n = ring.size();
        if (from < 0 || to > length || from > to) {
            throw new IllegalArgumentException("elements [" + from + ", " + to + ") are not within a vector of "
                    + length);
        }
        if (n == 1 || from == to) {
            return;
        }
        int r = ring.rank();
        int largest = RingChunks.length(length, n, 0);
        if (scratch.length < largest) {
            scratch = new float[largest];
        }
        // Reduce-scatter: at step s rank r sends chunk r - s (its running sum) and receives chunk r - s - 1, to
        // which it adds its own values: received + own keeps the fold's order.
        for (int s = 0; s < n - 1; s++) {
            int sendChunk = RingChunks.mod(r - s, n);
            int recvChunk = RingChunks.mod(r - s - 1, n);
            int recvStart = offset + pieceStart(length, n, recvChunk, from, to);
            int recvLength = pieceLength(length, n, recvChunk, from, to);
            ring.exchange(data, offset + pieceStart(length, n, sendChunk, from, to),
                    pieceLength(length, n, sendChunk, from, to), scratch, 0, recvLength);
            for (int i = 0; i < recvLength; i++) {
                data[recvStart + i] = scratch[i] + data[recvStart + i];
            }
        }
        // All-gather: rank r now holds the finished chunk r + 1; pass finished chunks around the ring.
        for (int s = 0; s < n - 1; s++) {
            int sendChunk = RingChunks.mod(r + 1 - s, n);
            int recvChunk = RingChunks.mod(r - s, n);
            ring.exchange(data, offset + pieceStart(length, n, sendChunk, from, to),
                    pieceLength(length, n, sendChunk, from, to), data,
                    offset + pieceStart(length, n, recvChunk, from, to), pieceLength(length, n, recvChunk, from, to));
        }
    }

    /** Where chunk {@code c}'s part of {@code [from, to)} starts. */
    private static int pieceStart(int length, int n, int c, int from, int to) {
        return Math.min(to, Math.max(from, RingChunks.start(length, n, c)));
    }

    /** The length of chunk {@code c}'s part of {@code [from, to)} (0 when they do not meet). */
    private static int pieceLength(int length, int n, int c, int from, int to) {
        return Math.min(to, Math.max(from, RingChunks.start(length, n, c + 1))) - pieceStart(length, n, c, from, to);
    }
}
