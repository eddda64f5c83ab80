package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.VectorNarrowConv.BLOCK;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The filter gradient of a convolution whose result has one vector of channels
 * ({@link VectorNarrowConv#filterGradientApplies}), straight from the zero-padded copy of each image
 * ({@link PaddedImage}): per image, one chain per tap and channel over the image's output pixels from zero, then
 * added to the images before it in order, so the result does not depend on how {@link VectorConv#backwardFilter}
 * splits the batch. Twelve taps are computed together ({@link VectorNarrowConv#BLOCK} chains cover the FMA latency);
 * a kernel three wide at stride 1 holds {@link #FILTER_ROW} pixels' dy in registers instead ({@link #filterRows}).
 * The register tiles are written out by hand, one variable per accumulator, so that they stay in registers.
 */
final class VectorNarrowFilterGradient {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Output pixels whose dy vectors {@link #filterRows} holds beside its twelve accumulators. */
    static final int FILTER_ROW = 8;

    private VectorNarrowFilterGradient() {
    }

    /**
     * {@code dw = sum over images [n0, n1) of columns^T dy} on the calling thread, for
     * {@link VectorNarrowConv#filterGradientApplies}: per image, {@link VectorNarrowConv#BLOCK} taps at a time
     * ({@link #filterRows} or {@link #taps}), each tap's chain over the image's output pixels from zero, then added to
     * {@code dw} (stored for the first image).
     */
    static void filterGradient(ConvGeometry g, int n0, int n1, float[] x, int xOff, float[] dy, int dyOff,
                               float[] dw, int dwOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        if (n0 == n1) {
            Arrays.fill(dw, dwOff, dwOff + k * oc, 0f);
            return;
        }
        Scratch scratch = Scratch.get();
        int blocks = VectorGemm.ceilDiv(k, BLOCK);
        int[] taps = scratch.taps(blocks * BLOCK);
        PaddedImage.taps(g, taps, k);
        int rowStride = PaddedImage.rowStride(g);
        // The taps past k read the window's first value (in bounds); their sums are dropped.
        Arrays.fill(taps, k, blocks * BLOCK, 0);
        int pixels = g.outH() * g.outW();
        // dy's rows padded to one vector when they are narrower, so the loop loads whole vectors.
        float[] rows = oc == L ? null : scratch.columns(pixels * L);
        float[] tile = scratch.tile(BLOCK * L);
        int pixelStep = g.strideW() * g.channels();
        int c = g.channels();
        boolean rows3 = filterByRows(g);
        for (int n = n0; n < n1; n++) {
            float[] image = PaddedImage.of(g, x, xOff, n);
            int imageBase = PaddedImage.base(g, xOff, n);
            float[] d = dy;
            int dBase = dyOff + n * pixels * oc;
            if (rows != null) {
                for (int r = 0; r < pixels; r++) {
                    System.arraycopy(dy, dBase + r * oc, rows, r * L, oc);
                    Arrays.fill(rows, r * L + oc, (r + 1) * L, 0f);
                }
                d = rows;
                dBase = 0;
            }
            if (rows3) {
                for (int i = 0; i < g.kernelH(); i++) {
                    for (int c0 = 0; c0 < c; c0 += 4) {
                        filterRows(image, imageBase + i * rowStride + c0, g.strideH() * rowStride, c, g.outH(),
                                g.outW(), d, dBase, tile);
                        for (int j = 0; j < 3; j++) {
                            for (int cc = 0; cc < 4; cc++) {
                                add(tile, (j * 4 + cc) * L, dw, dwOff + ((i * 3 + j) * c + c0 + cc) * oc, oc,
                                        n == n0);
                            }
                        }
                    }
                }
                continue;
            }
            for (int t = 0; t < k; t += BLOCK) {
                taps(g, image, imageBase, rowStride, pixelStep, taps, t, d, dBase, tile);
                int used = Math.min(BLOCK, k - t);
                for (int q = 0; q < used; q++) {
                    add(tile, q * L, dw, dwOff + (t + q) * oc, oc, n == n0);
                }
            }
        }
    }

    /** {@code dw[dwi, dwi + oc) = tile[ti, ti + oc)} if {@code first}, else {@code +=}. */
    private static void add(float[] tile, int ti, float[] dw, int dwi, int oc, boolean first) {
        for (int co = 0; co < oc; co++) {
            dw[dwi + co] = first ? tile[ti + co] : dw[dwi + co] + tile[ti + co];
        }
    }

    /**
     * Whether the filter gradient runs by rows ({@link #filterRows}): a kernel three wide at stride 1 along the
     * row, input channels in fours, rows of at least {@link #FILTER_ROW} pixels.
     */
    static boolean filterByRows(ConvGeometry g) {
        return g.kernelW() == 3 && g.strideW() == 1 && g.channels() % 4 == 0 && g.outW() >= FILTER_ROW;
    }

    /**
     * One image's sums for the twelve taps {@code (i, j, c0 + cc)}, {@code j < 3}, {@code cc < 4}, of one kernel row,
     * into tile at {@code (j * 4 + cc) * L}: each a chain over the image's output pixels in order from zero.
     * {@link #FILTER_ROW} pixels' dy vectors are held while each input value they read is broadcast once and multiplied
     * by the one, two or three of them whose windows hold it (one broadcast per FMA in {@link #taps}); the pixels left
     * at a row's end take four, then one dy vector at a time. {@code base} is the window of the image's first output
     * pixel at kernel row {@code i} and channel {@code c0}, {@code rowStep} apart per output row; dy's rows are one
     * vector apart from {@code dBase}.
     */
    private static void filterRows(float[] x, int base, int rowStep, int c, int outH, int outW, float[] d, int dBase,
                                   float[] tile) {
        FloatVector a00 = FloatVector.zero(S);
        FloatVector a01 = a00;
        FloatVector a02 = a00;
        FloatVector a03 = a00;
        FloatVector a10 = a00;
        FloatVector a11 = a00;
        FloatVector a12 = a00;
        FloatVector a13 = a00;
        FloatVector a20 = a00;
        FloatVector a21 = a00;
        FloatVector a22 = a00;
        FloatVector a23 = a00;
        FloatVector v;
        for (int oh = 0; oh < outH; oh++) {
            int s = base + oh * rowStep;
            int di = dBase + oh * outW * L;
            int ow = 0;
            for (; ow + FILTER_ROW <= outW; ow += FILTER_ROW, s += FILTER_ROW * c, di += FILTER_ROW * L) {
                FloatVector d0 = FloatVector.fromArray(S, d, di);
                FloatVector d1 = FloatVector.fromArray(S, d, di + 1 * L);
                FloatVector d2 = FloatVector.fromArray(S, d, di + 2 * L);
                FloatVector d3 = FloatVector.fromArray(S, d, di + 3 * L);
                FloatVector d4 = FloatVector.fromArray(S, d, di + 4 * L);
                FloatVector d5 = FloatVector.fromArray(S, d, di + 5 * L);
                FloatVector d6 = FloatVector.fromArray(S, d, di + 6 * L);
                FloatVector d7 = FloatVector.fromArray(S, d, di + 7 * L);
                v = FloatVector.broadcast(S, x[s]);
                a00 = v.fma(d0, a00);
                v = FloatVector.broadcast(S, x[s + c]);
                a00 = v.fma(d1, a00);
                a10 = v.fma(d0, a10);
                v = FloatVector.broadcast(S, x[s + 2 * c]);
                a00 = v.fma(d2, a00);
                a10 = v.fma(d1, a10);
                a20 = v.fma(d0, a20);
                v = FloatVector.broadcast(S, x[s + 3 * c]);
                a00 = v.fma(d3, a00);
                a10 = v.fma(d2, a10);
                a20 = v.fma(d1, a20);
                v = FloatVector.broadcast(S, x[s + 4 * c]);
                a00 = v.fma(d4, a00);
                a10 = v.fma(d3, a10);
                a20 = v.fma(d2, a20);
                v = FloatVector.broadcast(S, x[s + 5 * c]);
                a00 = v.fma(d5, a00);
                a10 = v.fma(d4, a10);
                a20 = v.fma(d3, a20);
                v = FloatVector.broadcast(S, x[s + 6 * c]);
                a00 = v.fma(d6, a00);
                a10 = v.fma(d5, a10);
                a20 = v.fma(d4, a20);
                v = FloatVector.broadcast(S, x[s + 7 * c]);
                a00 = v.fma(d7, a00);
                a10 = v.fma(d6, a10);
                a20 = v.fma(d5, a20);
                v = FloatVector.broadcast(S, x[s + 8 * c]);
                a10 = v.fma(d7, a10);
                a20 = v.fma(d6, a20);
                v = FloatVector.broadcast(S, x[s + 9 * c]);
                a20 = v.fma(d7, a20);
                v = FloatVector.broadcast(S, x[s + 1]);
                a01 = v.fma(d0, a01);
                v = FloatVector.broadcast(S, x[s + c + 1]);
                a01 = v.fma(d1, a01);
                a11 = v.fma(d0, a11);
                v = FloatVector.broadcast(S, x[s + 2 * c + 1]);
                a01 = v.fma(d2, a01);
                a11 = v.fma(d1, a11);
                a21 = v.fma(d0, a21);
                v = FloatVector.broadcast(S, x[s + 3 * c + 1]);
                a01 = v.fma(d3, a01);
                a11 = v.fma(d2, a11);
                a21 = v.fma(d1, a21);
                v = FloatVector.broadcast(S, x[s + 4 * c + 1]);
                a01 = v.fma(d4, a01);
                a11 = v.fma(d3, a11);
                a21 = v.fma(d2, a21);
                v = FloatVector.broadcast(S, x[s + 5 * c + 1]);
                a01 = v.fma(d5, a01);
                a11 = v.fma(d4, a11);
                a21 = v.fma(d3, a21);
                v = FloatVector.broadcast(S, x[s + 6 * c + 1]);
                a01 = v.fma(d6, a01);
                a11 = v.fma(d5, a11);
                a21 = v.fma(d4, a21);
                v = FloatVector.broadcast(S, x[s + 7 * c + 1]);
                a01 = v.fma(d7, a01);
                a11 = v.fma(d6, a11);
                a21 = v.fma(d5, a21);
                v = FloatVector.broadcast(S, x[s + 8 * c + 1]);
                a11 = v.fma(d7, a11);
                a21 = v.fma(d6, a21);
                v = FloatVector.broadcast(S, x[s + 9 * c + 1]);
                a21 = v.fma(d7, a21);
                v = FloatVector.broadcast(S, x[s + 2]);
                a02 = v.fma(d0, a02);
                v = FloatVector.broadcast(S, x[s + c + 2]);
                a02 = v.fma(d1, a02);
                a12 = v.fma(d0, a12);
                v = FloatVector.broadcast(S, x[s + 2 * c + 2]);
                a02 = v.fma(d2, a02);
                a12 = v.fma(d1, a12);
                a22 = v.fma(d0, a22);
                v = FloatVector.broadcast(S, x[s + 3 * c + 2]);
                a02 = v.fma(d3, a02);
                a12 = v.fma(d2, a12);
                a22 = v.fma(d1, a22);
                v = FloatVector.broadcast(S, x[s + 4 * c + 2]);
                a02 = v.fma(d4, a02);
                a12 = v.fma(d3, a12);
                a22 = v.fma(d2, a22);
                v = FloatVector.broadcast(S, x[s + 5 * c + 2]);
                a02 = v.fma(d5, a02);
                a12 = v.fma(d4, a12);
                a22 = v.fma(d3, a22);
                v = FloatVector.broadcast(S, x[s + 6 * c + 2]);
                a02 = v.fma(d6, a02);
                a12 = v.fma(d5, a12);
                a22 = v.fma(d4, a22);
                v = FloatVector.broadcast(S, x[s + 7 * c + 2]);
                a02 = v.fma(d7, a02);
                a12 = v.fma(d6, a12);
                a22 = v.fma(d5, a22);
                v = FloatVector.broadcast(S, x[s + 8 * c + 2]);
                a12 = v.fma(d7, a12);
                a22 = v.fma(d6, a22);
                v = FloatVector.broadcast(S, x[s + 9 * c + 2]);
                a22 = v.fma(d7, a22);
                v = FloatVector.broadcast(S, x[s + 3]);
                a03 = v.fma(d0, a03);
                v = FloatVector.broadcast(S, x[s + c + 3]);
                a03 = v.fma(d1, a03);
                a13 = v.fma(d0, a13);
                v = FloatVector.broadcast(S, x[s + 2 * c + 3]);
                a03 = v.fma(d2, a03);
                a13 = v.fma(d1, a13);
                a23 = v.fma(d0, a23);
                v = FloatVector.broadcast(S, x[s + 3 * c + 3]);
                a03 = v.fma(d3, a03);
                a13 = v.fma(d2, a13);
                a23 = v.fma(d1, a23);
                v = FloatVector.broadcast(S, x[s + 4 * c + 3]);
                a03 = v.fma(d4, a03);
                a13 = v.fma(d3, a13);
                a23 = v.fma(d2, a23);
                v = FloatVector.broadcast(S, x[s + 5 * c + 3]);
                a03 = v.fma(d5, a03);
                a13 = v.fma(d4, a13);
                a23 = v.fma(d3, a23);
                v = FloatVector.broadcast(S, x[s + 6 * c + 3]);
                a03 = v.fma(d6, a03);
                a13 = v.fma(d5, a13);
                a23 = v.fma(d4, a23);
                v = FloatVector.broadcast(S, x[s + 7 * c + 3]);
                a03 = v.fma(d7, a03);
                a13 = v.fma(d6, a13);
                a23 = v.fma(d5, a23);
                v = FloatVector.broadcast(S, x[s + 8 * c + 3]);
                a13 = v.fma(d7, a13);
                a23 = v.fma(d6, a23);
                v = FloatVector.broadcast(S, x[s + 9 * c + 3]);
                a23 = v.fma(d7, a23);
            }
            // Four pixels at a time where four are left (a 28-pixel row ends in four): half the block, each dy
            // vector still serving its three taps, and each pixel still added in order.
            int half = FILTER_ROW / 2;
            for (; ow + half <= outW; ow += half, s += half * c, di += half * L) {
                FloatVector d0 = FloatVector.fromArray(S, d, di);
                FloatVector d1 = FloatVector.fromArray(S, d, di + 1 * L);
                FloatVector d2 = FloatVector.fromArray(S, d, di + 2 * L);
                FloatVector d3 = FloatVector.fromArray(S, d, di + 3 * L);
                v = FloatVector.broadcast(S, x[s]);
                a00 = v.fma(d0, a00);
                v = FloatVector.broadcast(S, x[s + c]);
                a00 = v.fma(d1, a00);
                a10 = v.fma(d0, a10);
                v = FloatVector.broadcast(S, x[s + 2 * c]);
                a00 = v.fma(d2, a00);
                a10 = v.fma(d1, a10);
                a20 = v.fma(d0, a20);
                v = FloatVector.broadcast(S, x[s + 3 * c]);
                a00 = v.fma(d3, a00);
                a10 = v.fma(d2, a10);
                a20 = v.fma(d1, a20);
                v = FloatVector.broadcast(S, x[s + 4 * c]);
                a10 = v.fma(d3, a10);
                a20 = v.fma(d2, a20);
                v = FloatVector.broadcast(S, x[s + 5 * c]);
                a20 = v.fma(d3, a20);
                v = FloatVector.broadcast(S, x[s + 1]);
                a01 = v.fma(d0, a01);
                v = FloatVector.broadcast(S, x[s + c + 1]);
                a01 = v.fma(d1, a01);
                a11 = v.fma(d0, a11);
                v = FloatVector.broadcast(S, x[s + 2 * c + 1]);
                a01 = v.fma(d2, a01);
                a11 = v.fma(d1, a11);
                a21 = v.fma(d0, a21);
                v = FloatVector.broadcast(S, x[s + 3 * c + 1]);
                a01 = v.fma(d3, a01);
                a11 = v.fma(d2, a11);
                a21 = v.fma(d1, a21);
                v = FloatVector.broadcast(S, x[s + 4 * c + 1]);
                a11 = v.fma(d3, a11);
                a21 = v.fma(d2, a21);
                v = FloatVector.broadcast(S, x[s + 5 * c + 1]);
                a21 = v.fma(d3, a21);
                v = FloatVector.broadcast(S, x[s + 2]);
                a02 = v.fma(d0, a02);
                v = FloatVector.broadcast(S, x[s + c + 2]);
                a02 = v.fma(d1, a02);
                a12 = v.fma(d0, a12);
                v = FloatVector.broadcast(S, x[s + 2 * c + 2]);
                a02 = v.fma(d2, a02);
                a12 = v.fma(d1, a12);
                a22 = v.fma(d0, a22);
                v = FloatVector.broadcast(S, x[s + 3 * c + 2]);
                a02 = v.fma(d3, a02);
                a12 = v.fma(d2, a12);
                a22 = v.fma(d1, a22);
                v = FloatVector.broadcast(S, x[s + 4 * c + 2]);
                a12 = v.fma(d3, a12);
                a22 = v.fma(d2, a22);
                v = FloatVector.broadcast(S, x[s + 5 * c + 2]);
                a22 = v.fma(d3, a22);
                v = FloatVector.broadcast(S, x[s + 3]);
                a03 = v.fma(d0, a03);
                v = FloatVector.broadcast(S, x[s + c + 3]);
                a03 = v.fma(d1, a03);
                a13 = v.fma(d0, a13);
                v = FloatVector.broadcast(S, x[s + 2 * c + 3]);
                a03 = v.fma(d2, a03);
                a13 = v.fma(d1, a13);
                a23 = v.fma(d0, a23);
                v = FloatVector.broadcast(S, x[s + 3 * c + 3]);
                a03 = v.fma(d3, a03);
                a13 = v.fma(d2, a13);
                a23 = v.fma(d1, a23);
                v = FloatVector.broadcast(S, x[s + 4 * c + 3]);
                a13 = v.fma(d3, a13);
                a23 = v.fma(d2, a23);
                v = FloatVector.broadcast(S, x[s + 5 * c + 3]);
                a23 = v.fma(d3, a23);
            }
            for (; ow < outW; ow++, s += c, di += L) {
                FloatVector dv = FloatVector.fromArray(S, d, di);
                a00 = FloatVector.broadcast(S, x[s]).fma(dv, a00);
                a10 = FloatVector.broadcast(S, x[s + c]).fma(dv, a10);
                a20 = FloatVector.broadcast(S, x[s + 2 * c]).fma(dv, a20);
                a01 = FloatVector.broadcast(S, x[s + 1]).fma(dv, a01);
                a11 = FloatVector.broadcast(S, x[s + c + 1]).fma(dv, a11);
                a21 = FloatVector.broadcast(S, x[s + 2 * c + 1]).fma(dv, a21);
                a02 = FloatVector.broadcast(S, x[s + 2]).fma(dv, a02);
                a12 = FloatVector.broadcast(S, x[s + c + 2]).fma(dv, a12);
                a22 = FloatVector.broadcast(S, x[s + 2 * c + 2]).fma(dv, a22);
                a03 = FloatVector.broadcast(S, x[s + 3]).fma(dv, a03);
                a13 = FloatVector.broadcast(S, x[s + c + 3]).fma(dv, a13);
                a23 = FloatVector.broadcast(S, x[s + 2 * c + 3]).fma(dv, a23);
            }
        }
        a00.intoArray(tile, 0);
        a01.intoArray(tile, 1 * L);
        a02.intoArray(tile, 2 * L);
        a03.intoArray(tile, 3 * L);
        a10.intoArray(tile, 4 * L);
        a11.intoArray(tile, 5 * L);
        a12.intoArray(tile, 6 * L);
        a13.intoArray(tile, 7 * L);
        a20.intoArray(tile, 8 * L);
        a21.intoArray(tile, 9 * L);
        a22.intoArray(tile, 10 * L);
        a23.intoArray(tile, 11 * L);
    }

    /**
     * Taps {@code [t, t + BLOCK)} of one image's filter gradient: each a chain over the output pixels in order
     * from zero, the pixel's dy vector (one vector apart from {@code dBase}) times the tap's input value, into tile.
     */
    private static void taps(ConvGeometry g, float[] x, int imageBase, int rowStride, int pixelStep, int[] taps,
                             int t, float[] d, int dBase, float[] tile) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        FloatVector a4 = a0;
        FloatVector a5 = a0;
        FloatVector a6 = a0;
        FloatVector a7 = a0;
        FloatVector a8 = a0;
        FloatVector a9 = a0;
        FloatVector a10 = a0;
        FloatVector a11 = a0;
        int t0 = taps[t];
        int t1 = taps[t + 1];
        int t2 = taps[t + 2];
        int t3 = taps[t + 3];
        int t4 = taps[t + 4];
        int t5 = taps[t + 5];
        int t6 = taps[t + 6];
        int t7 = taps[t + 7];
        int t8 = taps[t + 8];
        int t9 = taps[t + 9];
        int t10 = taps[t + 10];
        int t11 = taps[t + 11];
        int di = dBase;
        for (int oh = 0; oh < g.outH(); oh++) {
            int s = imageBase + oh * g.strideH() * rowStride;
            for (int ow = 0; ow < g.outW(); ow++, s += pixelStep, di += L) {
                FloatVector dv = FloatVector.fromArray(S, d, di);
                a0 = FloatVector.broadcast(S, x[s + t0]).fma(dv, a0);
                a1 = FloatVector.broadcast(S, x[s + t1]).fma(dv, a1);
                a2 = FloatVector.broadcast(S, x[s + t2]).fma(dv, a2);
                a3 = FloatVector.broadcast(S, x[s + t3]).fma(dv, a3);
                a4 = FloatVector.broadcast(S, x[s + t4]).fma(dv, a4);
                a5 = FloatVector.broadcast(S, x[s + t5]).fma(dv, a5);
                a6 = FloatVector.broadcast(S, x[s + t6]).fma(dv, a6);
                a7 = FloatVector.broadcast(S, x[s + t7]).fma(dv, a7);
                a8 = FloatVector.broadcast(S, x[s + t8]).fma(dv, a8);
                a9 = FloatVector.broadcast(S, x[s + t9]).fma(dv, a9);
                a10 = FloatVector.broadcast(S, x[s + t10]).fma(dv, a10);
                a11 = FloatVector.broadcast(S, x[s + t11]).fma(dv, a11);
            }
        }
        a0.intoArray(tile, 0);
        a1.intoArray(tile, L);
        a2.intoArray(tile, 2 * L);
        a3.intoArray(tile, 3 * L);
        a4.intoArray(tile, 4 * L);
        a5.intoArray(tile, 5 * L);
        a6.intoArray(tile, 6 * L);
        a7.intoArray(tile, 7 * L);
        a8.intoArray(tile, 8 * L);
        a9.intoArray(tile, 9 * L);
        a10.intoArray(tile, 10 * L);
        a11.intoArray(tile, 11 * L);
    }
}
