package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.AttentionProduct.COLUMNS;
import static dev.brisk.backend.jvm.AttentionProduct.DENSE;
import static dev.brisk.backend.jvm.AttentionProduct.INNER_FROM;
import static dev.brisk.backend.jvm.AttentionProduct.INNER_TO;
import static dev.brisk.backend.jvm.AttentionProduct.product;

import dev.brisk.ops.AttentionGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Fused attention ({@link VectorKernels#attention}), one (batch entry, head) pair per task, split over the pool by
 * pairs, so a pair's sums never depend on the thread count. Per pair the keys (and, backward, the values) are packed
 * transposed once; then a block of {@link #BLOCK} query rows at a time has its scores computed into per-thread
 * scratch that stays in L1 and L2, normalized in place and multiplied by the values, so the scores never reach
 * memory. A causal pair computes only the scores on and below the diagonal (to the register tile).
 *
 * <p>The forward pass multiplies the rows' exponentials {@code e^(s - max)} by the values and scales each output row
 * by its reciprocal sum afterwards (a multiply per output element, not per score). It keeps each row's score maximum
 * and reciprocal sum of exponentials rather than the probabilities; the backward pass recomputes the probabilities
 * from them with the same operations, so their exponentials have the forward pass's bits. (A log-sum-exp alone would
 * not do: for a row that a mask hides throughout, -1e9 plus the log of the key count rounds back to -1e9 in float,
 * and the recomputed probabilities would be 1 instead of 1 / keys.)
 *
 * <p>The blocks of scores have rows padded to whole vectors ({@link #padded}), so a row of scores is taken in whole
 * vectors, the last one's lanes past the row's end replaced in registers. A row of another operand shorter than a
 * vector (a head depth below the lane count) takes no vector at all: a vector accumulator whose loop never runs
 * was, in some JVMs, compiled by C2 as a boxed object, one allocation per call; the rows of scores start their
 * accumulators from their last vector, which always exists, for the same reason.
 */
final class VectorAttention {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /**
     * Query rows per block: 32 rows of scores for 128 keys are 16 KB, the causal diagonal wastes little, and 32 is a
     * whole number of {@link AttentionProduct#MR}-row tiles where vectors are 512 bits.
     */
    static final int BLOCK = 32;
    /** Edge of the register-transposed blocks of {@link #pack}, or 0 for none. */
    private static final int TRANSPOSE = L == 16 ? 16 : L >= 8 ? 8 : 0;

    private VectorAttention() {
    }

    static void forward(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                        float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff) {
        int pairs = g.batch() * g.heads();
        if (Split.serial(pairs, 1)) {
            for (int pair = 0; pair < pairs; pair++) {
                forwardPair(g, pair, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff);
            }
            return;
        }
        AttentionArgs a = fill(g, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff);
        a.forRange(pairs, 1, Split.CHUNKS_PER_THREAD, FORWARD);
    }

    private static final RegionTask.Body<AttentionArgs> FORWARD = (a, p0, p1) -> {
        for (int pair = p0; pair < p1; pair++) {
            forwardPair(a.g, pair, a.q, a.qOff, a.k, a.kOff, a.v, a.vOff, a.mask, a.maskOff, a.out, a.outOff,
                    a.stats, a.statsOff);
        }
    };

    static void backward(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                         float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff,
                         float[] dOut, int dOutOff, float[] grads, int gradsOff) {
        int pairs = g.batch() * g.heads();
        if (Split.serial(pairs, 1)) {
            for (int pair = 0; pair < pairs; pair++) {
                backwardPair(g, pair, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff, dOut,
                        dOutOff, grads, gradsOff);
            }
            return;
        }
        AttentionArgs a = fill(g, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff);
        a.dOut = dOut;
        a.dOutOff = dOutOff;
        a.grads = grads;
        a.gradsOff = gradsOff;
        a.forRange(pairs, 1, Split.CHUNKS_PER_THREAD, BACKWARD);
    }

    private static final RegionTask.Body<AttentionArgs> BACKWARD = (a, p0, p1) -> {
        for (int pair = p0; pair < p1; pair++) {
            backwardPair(a.g, pair, a.q, a.qOff, a.k, a.kOff, a.v, a.vOff, a.mask, a.maskOff, a.out, a.outOff,
                    a.stats, a.statsOff, a.dOut, a.dOutOff, a.grads, a.gradsOff);
        }
    };

    private static AttentionArgs fill(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v,
                                      int vOff, float[] mask, int maskOff, float[] out, int outOff, float[] stats,
                                      int statsOff) {
        AttentionArgs a = AttentionArgs.get();
        a.g = g;
        a.q = q;
        a.qOff = qOff;
        a.k = k;
        a.kOff = kOff;
        a.v = v;
        a.vOff = vOff;
        a.mask = mask;
        a.maskOff = maskOff;
        a.out = out;
        a.outOff = outOff;
        a.stats = stats;
        a.statsOff = statsOff;
        return a;
    }

    /** One (batch entry, head) pair's output rows and row statistics. */
    private static void forwardPair(AttentionGeometry g, int pair, float[] q, int qOff, float[] k, int kOff,
                                    float[] v, int vOff, float[] mask, int maskOff, float[] out, int outOff,
                                    float[] stats, int statsOff) {
        int hq = headStart(g, pair, g.queries(), g.depth());
        int hk = headStart(g, pair, g.keys(), g.depth());
        int hv = headStart(g, pair, g.keys(), g.valueDepth());
        int ho = headStart(g, pair, g.queries(), g.valueDepth());
        int hs = pair * g.queries() * 2;
        int rowQ = g.heads() * g.depth();
        int rowV = g.heads() * g.valueDepth();
        Scratch scratch = Scratch.get();
        int ld = padded(g.keys());
        float[] w = scratch.attention(g.depth() * g.keys() + BLOCK * ld);
        float[] lanes = scratch.lanes(L);
        int scores = g.depth() * g.keys();
        pack(k, kOff + hk, rowQ, g.depth(), g.keysOf(g.queries() - 1), w, 0, g.keys());
        for (int i0 = 0; i0 < g.queries(); i0 += BLOCK) {
            int rows = Math.min(BLOCK, g.queries() - i0);
            int seen = g.keysOf(i0 + rows - 1);
            product(rows, seen, g.depth(), q, qOff + hq + i0 * rowQ, rowQ, 1, w, 0, g.keys(), w, scores,
                    ld, false, g.causal() ? COLUMNS : DENSE, i0);
            for (int r = 0; r < rows; r++) {
                int i = i0 + r;
                int x = scores + r * ld;
                if (mask != null) {
                    addMask(w, x, mask, maskOff + maskRow(g, pair, i), g.keysOf(i));
                }
                exponentials(w, x, g.keysOf(i), seen, stats, statsOff + hs + 2 * i, lanes);
            }
            int o = outOff + ho + i0 * rowV;
            product(rows, g.valueDepth(), seen, w, scores, ld, 1, v, vOff + hv, rowV, out, o, rowV, false,
                    g.causal() ? INNER_TO : DENSE, i0);
            for (int r = 0; r < rows; r++) {
                scale(out, o + r * rowV, g.valueDepth(), stats[statsOff + hs + 2 * (i0 + r) + 1]);
            }
        }
    }

    /** One (batch entry, head) pair's gradients of q, k and v. */
    private static void backwardPair(AttentionGeometry g, int pair, float[] q, int qOff, float[] k, int kOff,
                                     float[] v, int vOff, float[] mask, int maskOff, float[] out, int outOff,
                                     float[] stats, int statsOff, float[] dOut, int dOutOff, float[] grads,
                                     int gradsOff) {
        int hq = headStart(g, pair, g.queries(), g.depth());
        int hk = headStart(g, pair, g.keys(), g.depth());
        int hv = headStart(g, pair, g.keys(), g.valueDepth());
        int ho = headStart(g, pair, g.queries(), g.valueDepth());
        int hs = pair * g.queries() * 2;
        int rowQ = g.heads() * g.depth();
        int rowV = g.heads() * g.valueDepth();
        int keys = g.keys();
        Scratch scratch = Scratch.get();
        int ld = padded(keys);
        float[] w = scratch.attention((g.depth() + g.valueDepth()) * keys + 2 * BLOCK * ld);
        float[] lanes = scratch.lanes(L);
        int packedV = g.depth() * keys;
        int probs = packedV + g.valueDepth() * keys;
        int dScores = probs + BLOCK * ld;
        pack(k, kOff + hk, rowQ, g.depth(), g.keysOf(g.queries() - 1), w, 0, keys);
        pack(v, vOff + hv, rowV, g.valueDepth(), g.keysOf(g.queries() - 1), w, packedV, keys);
        int dq = gradsOff + hq;
        int dk = gradsOff + g.querySize() + hk;
        int dv = gradsOff + g.querySize() + g.keySize() + hv;
        for (int j = 0; j < keys; j++) {
            Arrays.fill(grads, dk + j * rowQ, dk + j * rowQ + g.depth(), 0f);
            Arrays.fill(grads, dv + j * rowV, dv + j * rowV + g.valueDepth(), 0f);
        }
        int columns = g.causal() ? COLUMNS : DENSE;
        int innerTo = g.causal() ? INNER_TO : DENSE;
        int innerFrom = g.causal() ? INNER_FROM : DENSE;
        for (int i0 = 0; i0 < g.queries(); i0 += BLOCK) {
            int rows = Math.min(BLOCK, g.queries() - i0);
            int seen = g.keysOf(i0 + rows - 1);
            int qi = qOff + hq + i0 * rowQ;
            int oi = ho + i0 * rowV;
            product(rows, seen, g.depth(), q, qi, rowQ, 1, w, 0, keys, w, probs, ld, false, columns, i0);
            product(rows, seen, g.valueDepth(), dOut, dOutOff + oi, rowV, 1, w, packedV, keys, w, dScores, ld,
                    false, columns, i0);
            for (int r = 0; r < rows; r++) {
                int i = i0 + r;
                int x = probs + r * ld;
                if (mask != null) {
                    addMask(w, x, mask, maskOff + maskRow(g, pair, i), g.keysOf(i));
                }
                float rowDot = dot(dOut, dOutOff + oi + r * rowV, out, outOff + oi + r * rowV, g.valueDepth(),
                        lanes);
                scoreGradient(w, x, dScores + r * ld, g.keysOf(i), seen, stats, statsOff + hs + 2 * i, rowDot);
            }
            // dV += P^T dO, dQ = dS K, dK += dS^T Q.
            product(seen, g.valueDepth(), rows, w, probs, 1, ld, dOut, dOutOff + oi, rowV, grads, dv, rowV,
                    true, innerFrom, i0);
            product(rows, g.depth(), seen, w, dScores, ld, 1, k, kOff + hk, rowQ, grads, dq + i0 * rowQ, rowQ,
                    false, innerTo, i0);
            product(seen, g.depth(), rows, w, dScores, 1, ld, q, qi, rowQ, grads, dk, rowQ, true, innerFrom,
                    i0);
        }
    }

    /** Where pair {@code pair}'s rows of a {@code [B, length, H, depth]} tensor start, from the array's offset. */
    private static int headStart(AttentionGeometry g, int pair, int length, int depth) {
        return (pair / g.heads() * length * g.heads() + pair % g.heads()) * depth;
    }

    /** The mask row of query row {@code i} of the pair's batch entry, relative to the mask's offset. */
    private static int maskRow(AttentionGeometry g, int pair, int i) {
        int b = pair / g.heads();
        return (b * g.maskRows() + (g.maskRows() == 1 ? 0 : i)) * g.keys();
    }

    /**
     * Rows {@code [0, count)} of {@code depth} columns, {@code stride} apart, as columns of {@code dst}: square
     * blocks of a vector's lanes by register transposes (16x16 where vectors are 512 bits, else 8x8, as gemm's
     * packing chooses, so that C2 sees one vector size), the edges one float at a time.
     */
    static void pack(float[] src, int off, int stride, int depth, int count, float[] dst, int dstOff,
                             int ld) {
        int fullRows = TRANSPOSE == 0 ? 0 : count - count % TRANSPOSE;
        int fullCols = TRANSPOSE == 0 ? 0 : depth - depth % TRANSPOSE;
        for (int j = 0; j < fullRows; j += TRANSPOSE) {
            for (int p = 0; p < fullCols; p += TRANSPOSE) {
                if (TRANSPOSE == 16) {
                    Transpose16.block(src, off + j * stride + p, stride, dst, dstOff + p * ld + j, ld);
                } else {
                    Transpose8.block(src, off + j * stride + p, stride, dst, dstOff + p * ld + j, ld);
                }
            }
        }
        for (int j = 0; j < count; j++) {
            int s = off + j * stride;
            for (int p = j < fullRows ? fullCols : 0; p < depth; p++) {
                dst[dstOff + p * ld + j] = src[s + p];
            }
        }
    }

    private static void addMask(float[] w, int x, float[] mask, int m, int n) {
        int j = 0;
        for (; j + L <= n; j += L) {
            FloatVector.fromArray(S, w, x + j).add(FloatVector.fromArray(S, mask, m + j)).intoArray(w, x + j);
        }
        for (; j < n; j++) {
            w[x + j] += mask[m + j];
        }
    }

    /**
     * A row of {@code keys} scores padded to whole vectors, at least one (an empty row is one vector of padding): the
     * stride of the score blocks.
     */
    private static int padded(int keys) {
        return Math.max(L, (keys + L - 1) / L * L);
    }

    /**
     * Turns the first {@code n} scores of a row into their exponentials {@code e^(s - max)}, zeroes the rest up to
     * {@code width}, and records the row's maximum and reciprocal sum; the output rows are scaled by that
     * reciprocal after the product with the values (one multiply per output element rather than per score).
     *
     * <p>The row is taken in whole vectors (its stride is {@link #padded}), the lanes of the last one past
     * {@code n} replaced in registers (-infinity for the maximum, 0 for the exponentials): no scalar tail (a scalar
     * exp per tail element cost about as much as the row's vector exps), no scalar pad stored and read back as a
     * vector, and no vector loop that may not run before its first vector (see the class comment).
     */
    private static void exponentials(float[] w, int x, int n, int width, float[] stats, int s, float[] lanes) {
        int last = padded(n) - L;
        if (last == 0) {
            exponentialsOfOneVector(w, x, n, width, stats, s, lanes);
            return;
        }
        VectorMask<Float> past = S.indexInRange(last, n).not();
        FloatVector tail = FloatVector.fromArray(S, w, x + last);
        FloatVector vmax = tail.blend(Float.NEGATIVE_INFINITY, past);
        for (int j = 0; j < last; j += L) {
            vmax = vmax.max(FloatVector.fromArray(S, w, x + j));
        }
        float max = vmax.reduceLanes(VectorOperators.MAX);
        FloatVector bmax = FloatVector.broadcast(S, max);
        FloatVector vsum = VectorMath.expNonPositive(tail.sub(bmax)).blend(0f, past);
        vsum.intoArray(w, x + last);
        for (int j = 0; j < last; j += L) {
            FloatVector e = VectorMath.expNonPositive(FloatVector.fromArray(S, w, x + j).sub(bmax));
            e.intoArray(w, x + j);
            vsum = vsum.add(e);
        }
        // The lanes are added in lane order, not with reduceLanes(ADD), whose order may change once C2 compiles the
        // loop; a scalar sum of the row instead cost as much as the row's products (one add's latency each).
        vsum.intoArray(lanes, 0);
        float sum = 0f;
        for (int lane = 0; lane < L; lane++) {
            sum += lanes[lane];
        }
        if (last + L < width) {
            Arrays.fill(w, x + last + L, x + width, 0f);
        }
        stats[s] = max;
        stats[s + 1] = 1f / sum;
    }

    /**
     * {@link #exponentials} for a row of one vector, with the same operations in the same order (so the same bits)
     * and no loop: the loops over the row's other vectors would not run, and vectors kept across them are what C2
     * boxed (see the class comment).
     */
    private static void exponentialsOfOneVector(float[] w, int x, int n, int width, float[] stats, int s,
                                                float[] lanes) {
        VectorMask<Float> past = S.indexInRange(0, n).not();
        FloatVector row = FloatVector.fromArray(S, w, x);
        float max = row.blend(Float.NEGATIVE_INFINITY, past).reduceLanes(VectorOperators.MAX);
        FloatVector e = VectorMath.expNonPositive(row.sub(max)).blend(0f, past);
        e.intoArray(w, x);
        e.intoArray(lanes, 0);
        float sum = 0f;
        for (int lane = 0; lane < L; lane++) {
            sum += lanes[lane];
        }
        if (L < width) {
            Arrays.fill(w, x + L, x + width, 0f);
        }
        stats[s] = max;
        stats[s + 1] = 1f / sum;
    }

    private static void scale(float[] w, int x, int n, float by) {
        int j = 0;
        for (; j + L <= n; j += L) {
            FloatVector.fromArray(S, w, x + j).mul(by).intoArray(w, x + j);
        }
        for (; j < n; j++) {
            w[x + j] *= by;
        }
    }

    /**
     * Recomputes a row's probabilities from its scores with {@link #exponentials}'s operations and the recorded
     * reciprocal sum, then turns the row of {@code dO V^T} at {@code d} into the scores' gradient
     * {@code P (dP - rowDot)}; both rows are zeroed from {@code n} to {@code width}. Whole vectors, the last one's
     * lanes past {@code n} set to 0 in registers, as in {@link #exponentials}.
     */
    private static void scoreGradient(float[] w, int x, int d, int n, int width, float[] stats, int s,
                                      float rowDot) {
        // No vector lives across the loop (the maximum is a scalar operand): the loop does not run on rows of one
        // vector, and a vector kept across a loop that never ran was boxed by C2 in some JVMs (see the class comment).
        float max = stats[s];
        float inv = stats[s + 1];
        int last = padded(n) - L;
        for (int j = 0; j < last; j += L) {
            FloatVector p = VectorMath.expNonPositive(FloatVector.fromArray(S, w, x + j).sub(max)).mul(inv);
            p.intoArray(w, x + j);
            p.mul(FloatVector.fromArray(S, w, d + j).sub(rowDot)).intoArray(w, d + j);
        }
        VectorMask<Float> past = S.indexInRange(last, n).not();
        FloatVector p = VectorMath.expNonPositive(FloatVector.fromArray(S, w, x + last).sub(max)).mul(inv)
                .blend(0f, past);
        p.intoArray(w, x + last);
        p.mul(FloatVector.fromArray(S, w, d + last).sub(rowDot)).blend(0f, past).intoArray(w, d + last);
        if (last + L < width) {
            Arrays.fill(w, x + last + L, x + width, 0f);
            Arrays.fill(w, d + last + L, d + width, 0f);
        }
    }

    /**
     * A dot product: per lane in vectors, the lanes then added in lane order (as {@link #normalize}'s sum), then the
     * tail one product at a time.
     */
    private static float dot(float[] a, int aOff, float[] b, int bOff, int n, float[] lanes) {
        float sum = 0f;
        int j = 0;
        if (n >= L) {
            // The first product starts the sum (fma onto a zero vector gives the same bits).
            FloatVector acc = FloatVector.fromArray(S, a, aOff).mul(FloatVector.fromArray(S, b, bOff));
            for (j = L; j + L <= n; j += L) {
                acc = FloatVector.fromArray(S, a, aOff + j).fma(FloatVector.fromArray(S, b, bOff + j), acc);
            }
            acc.intoArray(lanes, 0);
            for (int lane = 0; lane < L; lane++) {
                sum += lanes[lane];
            }
        }
        for (; j < n; j++) {
            sum = Math.fma(a[aOff + j], b[bOff + j], sum);
        }
        return sum;
    }
}
