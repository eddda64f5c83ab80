package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A convolution's filter gradient {@code dw[t][co] = sum over output pixels r of x[r + t] dy[r][co]} straight from
 * the image, for a shallow kernel whose windows all lie inside the image: three taps at a time, each output pixel
 * a broadcast of three input values times the vectors of {@code dy}'s row.
 *
 * <p>It sums in exactly the order of {@link VectorConv}'s im2col + gemm path, so it gives the same bits: the caller
 * passes the same chunks of output rows, and each chunk is cut into gemm's depth blocks ({@link VectorGemm#KC});
 * a block's sum is one FMA chain over its rows from zero, which is then stored or added to {@code dw}. The chains
 * are kept in per-thread scratch between the output image rows a block spans (a float stored and read back is
 * unchanged).
 */
final class VectorDirectFilterGradient {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /**
     * The deepest kernel ({@code kh kw cin}) done directly. Against im2col + gemm, 28x28 images, batch 128, one
     * thread (BENCHMARKS.md, "Direct convolution"): 2.0x faster at depth 9, 1.9x at 27, 1.18x at 36, 1.09x at 54,
     * 0.95x at 72.
     */
    private static final int MAX_DEPTH = 36;

    private VectorDirectFilterGradient() {
    }

    /** Whether this kernel handles the gradient: a shallow kernel, no window over the padding. */
    static boolean applies(ConvGeometry g) {
        return Im2Col.rowLength(g) <= MAX_DEPTH && g.padTop() == 0 && g.padLeft() == 0
                && (g.outH() - 1) * g.strideH() + g.kernelH() <= g.height()
                && (g.outW() - 1) * g.strideW() + g.kernelW() <= g.width();
    }

    /**
     * {@code dw = sum over images [n0, n1)}, output rows taken {@code chunk} at a time as {@link VectorConv} does,
     * on the calling thread.
     */
    static void filterGradient(ConvGeometry g, int n0, int n1, int chunk, float[] x, int xOff, float[] dy,
                               int dyOff, float[] dw, int dwOff) {
        filterGradient(g, n0, n1, chunk, x, xOff, dy, dyOff, null, null, 0, dw, dwOff);
    }

    /**
     * As above; with {@code pool} not null, {@code dy} is the gradient of the pooling of this convolution's output,
     * and the convolution's own gradient is routed from it by the pool's {@code cells} as the chains read it
     * ({@link PooledGradient}): the same values in the same order, so the same bits.
     */
    static void filterGradient(ConvGeometry g, int n0, int n1, int chunk, float[] x, int xOff, float[] dy,
                               int dyOff, PoolGeometry pool, float[] cells, int cellsOff, float[] dw, int dwOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        int imageRows = g.outH() * g.outW();
        int start = n0 * imageRows;
        int end = n1 * imageRows;
        if (start == end) {
            Arrays.fill(dw, dwOff, dwOff + k * oc, 0f);
            return;
        }
        Scratch scratch = Scratch.get();
        int[] taps = scratch.taps(k);
        int rowStride = g.width() * g.channels();
        int kwc = g.kernelW() * g.channels();
        for (int p = 0; p < k; p++) {
            taps[p] = p / kwc * rowStride + p % kwc;
        }
        float[] sums = scratch.patch(k * oc);
        for (int r0 = start; r0 < end; r0 += chunk) {
            int r1 = Math.min(end, r0 + chunk);
            int depth = r1 - r0;
            int kc = VectorGemm.ceilDiv(depth, VectorGemm.ceilDiv(depth, VectorGemm.KC));
            for (int pc = 0; pc < depth; pc += kc) {
                int kb = Math.min(kc, depth - pc);
                Arrays.fill(sums, 0, k * oc, 0f);
                block(g, taps, x, xOff, dy, dyOff, pool, cells, cellsOff, r0 + pc, r0 + pc + kb, sums);
                boolean add = r0 > start || pc > 0;
                for (int i = 0; i < k * oc; i++) {
                    dw[dwOff + i] = add ? dw[dwOff + i] + sums[i] : sums[i];
                }
            }
        }
    }

    /** Adds output rows {@code [from, to)} to the chains in {@code sums}, one output image row at a time. */
    private static void block(ConvGeometry g, int[] taps, float[] x, int xOff, float[] dy, int dyOff,
                              PoolGeometry pool, float[] cells, int cellsOff, int from, int to, float[] sums) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        int pixelStep = g.strideW() * g.channels();
        // Eighteen accumulators (pooledTaps3x3) need the 32 registers of 512-bit vectors.
        boolean taps3x3 = g.kernelH() == 3 && g.kernelW() == 3 && g.channels() == 1 && g.strideW() == 1
                && S.vectorBitSize() >= 512;
        for (int r = from; r < to; ) {
            int ow = r % g.outW();
            int oh = r / g.outW() % g.outH();
            int n = r / (g.outW() * g.outH());
            int count = Math.min(to - r, g.outW() - ow);
            int base = xOff + ((n * g.height() + oh * g.strideH()) * g.width() + ow * g.strideW()) * g.channels();
            if (pool != null) {
                pooledRow(pool, cells, cellsOff, dy, dyOff, n, oh, ow, count, x, base, pixelStep, taps, k, taps3x3,
                        oc, sums);
                r += count;
                continue;
            }
            int dyi = dyOff + r * oc;
            int j = 0;
            for (; j + 2 * L <= oc; j += 2 * L) {
                int t = 0;
                for (; t + 3 <= k; t += 3) {
                    taps3x2(x, base, pixelStep, taps, t, dy, dyi + j, oc, count, sums, t * oc + j);
                }
                for (; t < k; t++) {
                    tap1(x, base + taps[t], pixelStep, dy, dyi + j, oc, count, sums, t * oc + j, L);
                    tap1(x, base + taps[t], pixelStep, dy, dyi + j + L, oc, count, sums, t * oc + j + L, L);
                }
            }
            for (; j < oc; j += L) {
                int t = 0;
                for (; t + 3 <= k; t += 3) {
                    taps3x1(x, base, pixelStep, taps, t, dy, dyi + j, oc, count, sums, t * oc + j, oc - j);
                }
                for (; t < k; t++) {
                    tap1(x, base + taps[t], pixelStep, dy, dyi + j, oc, count, sums, t * oc + j, oc - j);
                }
            }
            r += count;
        }
    }

    /**
     * {@link #block}'s work for pixels {@code ow .. ow + count - 1} of output row {@code oh} of image {@code n} when
     * dy is routed from a pooling's cells ({@link PooledGradient}): each chain takes the same values in the same
     * order. The channels are whole vectors ({@link PooledGradient#supports}).
     */
    private static void pooledRow(PoolGeometry pool, float[] cells, int cellsOff, float[] dy, int dyOff, int n,
                                  int oh, int ow, int count, float[] x, int base, int pixelStep, int[] taps, int k,
                                  boolean taps3x3, int oc, float[] sums) {
        Scratch scratch = Scratch.get();
        int[] index = scratch.pooledIndex(count);
        float[] cell = scratch.pooledCell(count);
        PooledGradient.locate(pool, n, oh, ow, count, index, cell);
        int j = 0;
        if (taps3x3) {
            // A first layer's kernel: all nine taps of two vectors of channels in one pass, so that each pixel's dy
            // is routed once rather than once per three taps.
            for (; j + 2 * L <= oc; j += 2 * L) {
                pooledTaps3x3(x, base, taps[3], cells, cellsOff + j, dy, dyOff + j, index, cell, count, sums, j, oc);
            }
        }
        for (; j + 2 * L <= oc; j += 2 * L) {
            int t = 0;
            for (; t + 3 <= k; t += 3) {
                pooledTaps3x2(x, base, pixelStep, taps, t, cells, cellsOff + j, dy, dyOff + j, index, cell, count,
                        sums, t * oc + j, oc);
            }
            for (; t < k; t++) {
                pooledTap1(x, base + taps[t], pixelStep, cells, cellsOff + j, dy, dyOff + j, index, cell, count,
                        sums, t * oc + j);
                pooledTap1(x, base + taps[t], pixelStep, cells, cellsOff + j + L, dy, dyOff + j + L, index, cell,
                        count, sums, t * oc + j + L);
            }
        }
        for (; j < oc; j += L) {
            for (int t = 0; t < k; t++) {
                pooledTap1(x, base + taps[t], pixelStep, cells, cellsOff + j, dy, dyOff + j, index, cell, count,
                        sums, t * oc + j);
            }
        }
    }

    /**
     * All nine taps of a 3x3 kernel over one input channel x two vectors of channels, dy routed from the pooled
     * gradient by the cells: eighteen chains, each tap's input broadcast once for two of them. The taps are read at
     * indexes linear in {@code r}, so C2 drops their range checks.
     */
    private static void pooledTaps3x3(float[] x, int base, int rowStride, float[] cells, int cellsOff, float[] dy,
                                      int dyOff, int[] index, float[] cell, int count, float[] sums, int si, int oc) {
        FloatVector a0 = FloatVector.fromArray(S, sums, si);
        FloatVector a1 = FloatVector.fromArray(S, sums, si + oc);
        FloatVector a2 = FloatVector.fromArray(S, sums, si + 2 * oc);
        FloatVector a3 = FloatVector.fromArray(S, sums, si + 3 * oc);
        FloatVector a4 = FloatVector.fromArray(S, sums, si + 4 * oc);
        FloatVector a5 = FloatVector.fromArray(S, sums, si + 5 * oc);
        FloatVector a6 = FloatVector.fromArray(S, sums, si + 6 * oc);
        FloatVector a7 = FloatVector.fromArray(S, sums, si + 7 * oc);
        FloatVector a8 = FloatVector.fromArray(S, sums, si + 8 * oc);
        FloatVector b0 = FloatVector.fromArray(S, sums, si + L);
        FloatVector b1 = FloatVector.fromArray(S, sums, si + oc + L);
        FloatVector b2 = FloatVector.fromArray(S, sums, si + 2 * oc + L);
        FloatVector b3 = FloatVector.fromArray(S, sums, si + 3 * oc + L);
        FloatVector b4 = FloatVector.fromArray(S, sums, si + 4 * oc + L);
        FloatVector b5 = FloatVector.fromArray(S, sums, si + 5 * oc + L);
        FloatVector b6 = FloatVector.fromArray(S, sums, si + 6 * oc + L);
        FloatVector b7 = FloatVector.fromArray(S, sums, si + 7 * oc + L);
        FloatVector b8 = FloatVector.fromArray(S, sums, si + 8 * oc + L);
        int x1 = base + rowStride;
        int x2 = x1 + rowStride;
        for (int r = 0; r < count; r++) {
            int at = index[r];
            float c = cell[r];
            FloatVector d = FloatVector.fromArray(S, dy, dyOff + at,
                    FloatVector.fromArray(S, cells, cellsOff + at).compare(VectorOperators.EQ, c));
            FloatVector e = FloatVector.fromArray(S, dy, dyOff + at + L,
                    FloatVector.fromArray(S, cells, cellsOff + at + L).compare(VectorOperators.EQ, c));
            FloatVector v = FloatVector.broadcast(S, x[base + r]);
            a0 = v.fma(d, a0);
            b0 = v.fma(e, b0);
            v = FloatVector.broadcast(S, x[base + r + 1]);
            a1 = v.fma(d, a1);
            b1 = v.fma(e, b1);
            v = FloatVector.broadcast(S, x[base + r + 2]);
            a2 = v.fma(d, a2);
            b2 = v.fma(e, b2);
            v = FloatVector.broadcast(S, x[x1 + r]);
            a3 = v.fma(d, a3);
            b3 = v.fma(e, b3);
            v = FloatVector.broadcast(S, x[x1 + r + 1]);
            a4 = v.fma(d, a4);
            b4 = v.fma(e, b4);
            v = FloatVector.broadcast(S, x[x1 + r + 2]);
            a5 = v.fma(d, a5);
            b5 = v.fma(e, b5);
            v = FloatVector.broadcast(S, x[x2 + r]);
            a6 = v.fma(d, a6);
            b6 = v.fma(e, b6);
            v = FloatVector.broadcast(S, x[x2 + r + 1]);
            a7 = v.fma(d, a7);
            b7 = v.fma(e, b7);
            v = FloatVector.broadcast(S, x[x2 + r + 2]);
            a8 = v.fma(d, a8);
            b8 = v.fma(e, b8);
        }
        a0.intoArray(sums, si);
        a1.intoArray(sums, si + oc);
        a2.intoArray(sums, si + 2 * oc);
        a3.intoArray(sums, si + 3 * oc);
        a4.intoArray(sums, si + 4 * oc);
        a5.intoArray(sums, si + 5 * oc);
        a6.intoArray(sums, si + 6 * oc);
        a7.intoArray(sums, si + 7 * oc);
        a8.intoArray(sums, si + 8 * oc);
        b0.intoArray(sums, si + L);
        b1.intoArray(sums, si + oc + L);
        b2.intoArray(sums, si + 2 * oc + L);
        b3.intoArray(sums, si + 3 * oc + L);
        b4.intoArray(sums, si + 4 * oc + L);
        b5.intoArray(sums, si + 5 * oc + L);
        b6.intoArray(sums, si + 6 * oc + L);
        b7.intoArray(sums, si + 7 * oc + L);
        b8.intoArray(sums, si + 8 * oc + L);
    }

    /** {@link #taps3x2} with each pixel's two vectors of dy routed from the pooled gradient by the cells. */
    private static void pooledTaps3x2(float[] x, int base, int pixelStep, int[] taps, int t, float[] cells,
                                      int cellsOff, float[] dy, int dyOff, int[] index, float[] cell, int count,
                                      float[] sums, int si, int oc) {
        int o0 = base + taps[t];
        int o1 = base + taps[t + 1];
        int o2 = base + taps[t + 2];
        FloatVector c00 = FloatVector.fromArray(S, sums, si);
        FloatVector c01 = FloatVector.fromArray(S, sums, si + L);
        FloatVector c10 = FloatVector.fromArray(S, sums, si + oc);
        FloatVector c11 = FloatVector.fromArray(S, sums, si + oc + L);
        FloatVector c20 = FloatVector.fromArray(S, sums, si + 2 * oc);
        FloatVector c21 = FloatVector.fromArray(S, sums, si + 2 * oc + L);
        FloatVector zero = FloatVector.zero(S);
        for (int r = 0, xi = 0; r < count; r++, xi += pixelStep) {
            int at = index[r];
            float c = cell[r];
            FloatVector d0 = zero.add(FloatVector.fromArray(S, dy, dyOff + at),
                    FloatVector.fromArray(S, cells, cellsOff + at).compare(VectorOperators.EQ, c));
            FloatVector d1 = zero.add(FloatVector.fromArray(S, dy, dyOff + at + L),
                    FloatVector.fromArray(S, cells, cellsOff + at + L).compare(VectorOperators.EQ, c));
            FloatVector v0 = FloatVector.broadcast(S, x[o0 + xi]);
            c00 = v0.fma(d0, c00);
            c01 = v0.fma(d1, c01);
            FloatVector v1 = FloatVector.broadcast(S, x[o1 + xi]);
            c10 = v1.fma(d0, c10);
            c11 = v1.fma(d1, c11);
            FloatVector v2 = FloatVector.broadcast(S, x[o2 + xi]);
            c20 = v2.fma(d0, c20);
            c21 = v2.fma(d1, c21);
        }
        c00.intoArray(sums, si);
        c01.intoArray(sums, si + L);
        c10.intoArray(sums, si + oc);
        c11.intoArray(sums, si + oc + L);
        c20.intoArray(sums, si + 2 * oc);
        c21.intoArray(sums, si + 2 * oc + L);
    }

    /** {@link #tap1} of one whole vector of channels, dy routed from the pooled gradient by the cells. */
    private static void pooledTap1(float[] x, int xi, int pixelStep, float[] cells, int cellsOff, float[] dy,
                                   int dyOff, int[] index, float[] cell, int count, float[] sums, int si) {
        FloatVector c0 = FloatVector.fromArray(S, sums, si);
        FloatVector zero = FloatVector.zero(S);
        for (int r = 0; r < count; r++, xi += pixelStep) {
            int at = index[r];
            FloatVector d0 = zero.add(FloatVector.fromArray(S, dy, dyOff + at),
                    FloatVector.fromArray(S, cells, cellsOff + at).compare(VectorOperators.EQ, cell[r]));
            c0 = FloatVector.broadcast(S, x[xi]).fma(d0, c0);
        }
        c0.intoArray(sums, si);
    }

    /** Taps {@code t, t+1, t+2} x two vectors of channels over {@code count} pixels of one output row. */
    private static void taps3x2(float[] x, int base, int pixelStep, int[] taps, int t, float[] dy, int dyi, int oc,
                                int count, float[] sums, int si) {
        int o0 = base + taps[t];
        int o1 = base + taps[t + 1];
        int o2 = base + taps[t + 2];
        FloatVector c00 = FloatVector.fromArray(S, sums, si);
        FloatVector c01 = FloatVector.fromArray(S, sums, si + L);
        FloatVector c10 = FloatVector.fromArray(S, sums, si + oc);
        FloatVector c11 = FloatVector.fromArray(S, sums, si + oc + L);
        FloatVector c20 = FloatVector.fromArray(S, sums, si + 2 * oc);
        FloatVector c21 = FloatVector.fromArray(S, sums, si + 2 * oc + L);
        for (int r = 0, xi = 0; r < count; r++, xi += pixelStep, dyi += oc) {
            FloatVector d0 = FloatVector.fromArray(S, dy, dyi);
            FloatVector d1 = FloatVector.fromArray(S, dy, dyi + L);
            FloatVector v0 = FloatVector.broadcast(S, x[o0 + xi]);
            c00 = v0.fma(d0, c00);
            c01 = v0.fma(d1, c01);
            FloatVector v1 = FloatVector.broadcast(S, x[o1 + xi]);
            c10 = v1.fma(d0, c10);
            c11 = v1.fma(d1, c11);
            FloatVector v2 = FloatVector.broadcast(S, x[o2 + xi]);
            c20 = v2.fma(d0, c20);
            c21 = v2.fma(d1, c21);
        }
        c00.intoArray(sums, si);
        c01.intoArray(sums, si + L);
        c10.intoArray(sums, si + oc);
        c11.intoArray(sums, si + oc + L);
        c20.intoArray(sums, si + 2 * oc);
        c21.intoArray(sums, si + 2 * oc + L);
    }

    /** Taps {@code t, t+1, t+2} x the first {@code lanes} channels of one vector. */
    private static void taps3x1(float[] x, int base, int pixelStep, int[] taps, int t, float[] dy, int dyi, int oc,
                                int count, float[] sums, int si, int lanes) {
        VectorMask<Float> m = S.indexInRange(0, lanes);
        int o0 = base + taps[t];
        int o1 = base + taps[t + 1];
        int o2 = base + taps[t + 2];
        FloatVector c0 = FloatVector.fromArray(S, sums, si, m);
        FloatVector c1 = FloatVector.fromArray(S, sums, si + oc, m);
        FloatVector c2 = FloatVector.fromArray(S, sums, si + 2 * oc, m);
        for (int r = 0, xi = 0; r < count; r++, xi += pixelStep, dyi += oc) {
            FloatVector d0 = FloatVector.fromArray(S, dy, dyi, m);
            c0 = FloatVector.broadcast(S, x[o0 + xi]).fma(d0, c0);
            c1 = FloatVector.broadcast(S, x[o1 + xi]).fma(d0, c1);
            c2 = FloatVector.broadcast(S, x[o2 + xi]).fma(d0, c2);
        }
        c0.intoArray(sums, si, m);
        c1.intoArray(sums, si + oc, m);
        c2.intoArray(sums, si + 2 * oc, m);
    }

    /** One tap (its input at {@code xi}) x the first {@code lanes} channels of one vector. */
    private static void tap1(float[] x, int xi, int pixelStep, float[] dy, int dyi, int oc, int count,
                             float[] sums, int si, int lanes) {
        VectorMask<Float> m = S.indexInRange(0, lanes);
        FloatVector c0 = FloatVector.fromArray(S, sums, si, m);
        for (int r = 0; r < count; r++, xi += pixelStep, dyi += oc) {
            c0 = FloatVector.broadcast(S, x[xi]).fma(FloatVector.fromArray(S, dy, dyi, m), c0);
        }
        c0.intoArray(sums, si, m);
    }
}
