package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.UnaryFn;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * Forward convolution straight from the image, for a shallow kernel ({@code kh kw cin} small, e.g. the first
 * layer on a one-channel image): for each output pixel, each tap broadcasts one input value and multiplies it into
 * the vectors of output channels. With a depth of 9, im2col + gemm spent its time building the column matrix and
 * in register-tile overhead rather than in FMAs.
 *
 * <p>Each output lane gets exactly the arithmetic of {@link VectorConv}'s im2col + gemm path: one FMA chain over the
 * taps in im2col's {@code (i, j, c)} order starting from zero (gemm's register kernel over its single depth block,
 * padded taps included as zeros), then {@code + bias}, then {@code max(0)} ({@link VectorEpilogue#biasRelu}). So
 * the result is the same bits, whatever the split across threads.
 */
final class VectorDirectConv {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /**
     * The deepest kernel ({@code kh kw cin}) computed directly. Against im2col + gemm, 28x28 images, one thread
     * (BENCHMARKS.md, "Direct convolution"): 1.8x faster at depth 9, 27 and 36, 1.5x at 72, even at 144. It must
     * stay within one gemm depth block (320), or gemm would sum in another order and give other bits.
     */
    private static final int MAX_DEPTH = 96;
    /** Below this many multiply-adds the convolution runs on the calling thread. */
    private static final long PARALLEL_MIN_MACS = 1L << 17;
    /** Adjacent output pixels computed together. */
    private static final int PIXELS = 4;
    /**
     * Whether twice {@link #PIXELS} pixels of two vectors of channels are computed together ({@link #pixels8x2}):
     * sixteen accumulators, which need the 32 registers of 512-bit vectors.
     */
    private static final boolean WIDE = S.vectorBitSize() >= 512;

    private VectorDirectConv() {
    }

    /** Whether this kernel handles the convolution: a shallow kernel with no activation or relu. */
    static boolean applies(ConvGeometry g, UnaryFn fn) {
        return Im2Col.rowLength(g) <= MAX_DEPTH && (fn == null || fn == UnaryFn.RELU);
    }

    /** {@code y = conv2d(x, w) (+ bias)}, then relu if {@code relu}; a null {@code bias} adds nothing. */
    static void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                       boolean relu, float[] y, int yOff) {
        int rows = g.batch() * g.outH();
        long macs = (long) rows * g.outW() * Im2Col.rowLength(g) * g.outChannels();
        if (macs < PARALLEL_MIN_MACS || Split.serial(rows, 1)) {
            outputRows(g, x, xOff, w, wOff, bias, biasOff, relu, y, yOff, 0, rows);
            return;
        }
        ConvArgs r = convArgs(g, x, xOff, w, wOff, bias, biasOff, relu, y, yOff);
        // Output image rows: every output is written once, from its own window, so any boundary will do.
        r.forRange(rows, 1, Split.CHUNKS_PER_THREAD, (a, r0, r1) -> outputRows(a.conv, a.x, a.xOff, a.w, a.wOff,
                a.bias, a.biasOff, a.relu, a.out, a.outOff, r0, r1));
    }

    /** This thread's convolution arguments with the geometry, arrays and flag set. */
    private static ConvArgs convArgs(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias,
                                     int biasOff, boolean relu, float[] y, int yOff) {
        ConvArgs r = ConvArgs.get();
        r.conv = g;
        r.x = x;
        r.xOff = xOff;
        r.w = w;
        r.wOff = wOff;
        r.out = y;
        r.outOff = yOff;
        r.bias = bias;
        r.biasOff = biasOff;
        r.relu = relu;
        return r;
    }

    /**
     * {@link #conv2d}, then max pooling of each image (with its cells, unless {@code cells} is null) while it is in
     * this thread's buffer; the convolution's output is written nowhere else. Images split across threads. For what
     * {@link VectorConv#poolsInCache} accepts.
     */
    static void conv2dMaxPool(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                              boolean relu, PoolGeometry p, float[] y, int yOff, float[] cells, int cellsOff) {
        if (Split.serial(g.batch(), 1)) {
            pooledImages(g, x, xOff, w, wOff, bias, biasOff, relu, p, y, yOff, cells, cellsOff, 0, g.batch());
            return;
        }
        ConvArgs r = convArgs(g, x, xOff, w, wOff, bias, biasOff, relu, y, yOff);
        r.pool = p;
        r.cells = cells;
        r.cellsOff = cellsOff;
        r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> pooledImages(a.conv, a.x, a.xOff, a.w,
                a.wOff, a.bias, a.biasOff, a.relu, a.pool, a.out, a.outOff, a.cells, a.cellsOff, n0, n1));
    }

    /** Images {@code [n0, n1)} of {@link #conv2dMaxPool}, on the calling thread. */
    private static void pooledImages(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias,
                                     int biasOff, boolean relu, PoolGeometry p, float[] y, int yOff, float[] cells,
                                     int cellsOff, int n0, int n1) {
        int imageSize = g.outH() * g.outW() * g.outChannels();
        float[] image = Scratch.get().image(imageSize);
        for (int n = n0; n < n1; n++) {
            // The buffer holds image n alone: offsets are those of the whole batch's output, less n images, so
            // that the row and cell arithmetic of both kernels stays as it is.
            int shift = -n * imageSize;
            outputRows(g, x, xOff, w, wOff, bias, biasOff, relu, image, shift, n * g.outH(), (n + 1) * g.outH());
            VectorPool.maxPoolRows(p, image, shift, y, yOff, cells, cellsOff, n * p.outH(), (n + 1) * p.outH());
        }
    }

    /** Output image rows {@code [from, to)} (row {@code n * outH + oh}), on the calling thread. */
    private static void outputRows(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias,
                                   int biasOff, boolean relu, float[] y, int yOff, int from, int to) {
        int c = g.channels();
        int kh = g.kernelH();
        int kw = g.kernelW();
        int kwc = kw * c;
        int oc = g.outChannels();
        int rowStride = g.width() * c;
        int k = kh * kwc;
        float[] patch = Scratch.get().patch(k);
        int[] taps = Scratch.get().taps(k);
        for (int i = 0, p = 0; i < kh; i++) {
            for (int q = 0; q < kwc; q++) {
                taps[p++] = i * rowStride + q;
            }
        }
        int pixelStep = g.strideW() * c;
        // Output columns [owLo, owHi) have their whole window inside the image's width.
        int owLo = Math.min(g.outW(), VectorGemm.ceilDiv(g.padLeft(), g.strideW()));
        int owHi = Math.max(owLo, Math.min(g.outW(), Math.floorDiv(g.width() - kw + g.padLeft(), g.strideW()) + 1));
        for (int row = from; row < to; row++) {
            int n = row / g.outH();
            int ih0 = row % g.outH() * g.strideH() - g.padTop();
            boolean rowInside = ih0 >= 0 && ih0 + kh <= g.height();
            int yRow = yOff + row * g.outW() * oc;
            int ow = 0;
            if (rowInside) {
                for (; ow < owLo; ow++) {
                    border(g, x, xOff, n, ih0, ow, patch, w, wOff, bias, biasOff, relu, y, yRow + ow * oc);
                }
                int base = xOff + ((n * g.height() + ih0) * g.width() + ow * g.strideW() - g.padLeft()) * c;
                if (owHi - ow >= PIXELS) {
                    int o = ow;
                    if (WIDE && oc % (2 * L) == 0) {
                        for (; o + 2 * PIXELS <= owHi; o += 2 * PIXELS) {
                            for (int j = 0; j < oc; j += 2 * L) {
                                pixels8x2(x, base + (o - ow) * pixelStep, taps, k, pixelStep, w, wOff + j, oc, bias,
                                        biasOff + j, relu, y, yRow + o * oc + j);
                            }
                        }
                    }
                    for (; o < owHi; o += PIXELS) {
                        // The last block ends at owHi, recomputing a few pixels (same bits) rather than leaving
                        // them to the slower single-pixel path.
                        int start = Math.min(o, owHi - PIXELS);
                        pixels(x, base + (start - ow) * pixelStep, taps, k, pixelStep, w, wOff, oc, bias, biasOff,
                                relu, y, yRow + start * oc);
                    }
                    ow = owHi;
                }
                for (; ow < owHi; ow++, base += pixelStep) {
                    pixel(x, base, rowStride, kh, kwc, w, wOff, oc, bias, biasOff, relu, y, yRow + ow * oc);
                }
            }
            for (; ow < g.outW(); ow++) {
                border(g, x, xOff, n, ih0, ow, patch, w, wOff, bias, biasOff, relu, y, yRow + ow * oc);
            }
        }
    }

    /** An output pixel whose window may hang over the padding: through a zero-padded copy of the window. */
    private static void border(ConvGeometry g, float[] x, int xOff, int n, int ih0, int ow, float[] patch,
                               float[] w, int wOff, float[] bias, int biasOff, boolean relu, float[] y, int yi) {
        int kwc = g.kernelW() * g.channels();
        window(g, x, xOff, n, ih0, ow * g.strideW() - g.padLeft(), patch);
        pixel(patch, 0, kwc, g.kernelH(), kwc, w, wOff, g.outChannels(), bias, biasOff, relu, y, yi);
    }

    /** Copies the window at {@code (ih0, iw0)} of image {@code n} into {@code patch}, zeros over the padding. */
    private static void window(ConvGeometry g, float[] x, int xOff, int n, int ih0, int iw0, float[] patch) {
        int c = g.channels();
        int q = 0;
        for (int i = 0; i < g.kernelH(); i++) {
            int ih = ih0 + i;
            for (int j = 0; j < g.kernelW(); j++) {
                int iw = iw0 + j;
                boolean inside = ih >= 0 && ih < g.height() && iw >= 0 && iw < g.width();
                int src = xOff + ((n * g.height() + ih) * g.width() + iw) * c;
                for (int ch = 0; ch < c; ch++) {
                    patch[q++] = inside ? x[src + ch] : 0f;
                }
            }
        }
    }

    /**
     * {@link #PIXELS} adjacent output pixels of a row, all channels, their windows inside the image: the first
     * from {@code base}, each next one {@code pixelStep} further. Several pixels give the FMAs independent chains
     * to overlap and share each weight load.
     */
    private static void pixels(float[] x, int base, int[] taps, int k, int pixelStep, float[] w, int wOff, int oc,
                               float[] bias, int biasOff, boolean relu, float[] y, int yi) {
        int j = 0;
        for (; j + 2 * L <= oc; j += 2 * L) {
            pixels2(x, base, taps, k, pixelStep, w, wOff + j, oc, bias, biasOff + j, relu, y, yi + j);
        }
        for (; j < oc; j += L) {
            pixels1(x, base, taps, k, pixelStep, w, wOff + j, oc, bias, biasOff + j, relu, y, yi + j, oc - j);
        }
    }

    /**
     * Eight pixels x two vectors of channels: each weight load serves sixteen FMAs, and the call's fixed work (bias,
     * relu, stores) is spread over twice the pixels of {@link #pixels2}. Each lane's chain is the same.
     */
    private static void pixels8x2(float[] x, int base, int[] taps, int k, int pixelStep, float[] w, int wi, int oc,
                                  float[] bias, int bi, boolean relu, float[] y, int yi) {
        FloatVector a00 = FloatVector.zero(S);
        FloatVector a01 = a00;
        FloatVector a10 = a00;
        FloatVector a11 = a00;
        FloatVector a20 = a00;
        FloatVector a21 = a00;
        FloatVector a30 = a00;
        FloatVector a31 = a00;
        FloatVector a40 = a00;
        FloatVector a41 = a00;
        FloatVector a50 = a00;
        FloatVector a51 = a00;
        FloatVector a60 = a00;
        FloatVector a61 = a00;
        FloatVector a70 = a00;
        FloatVector a71 = a00;
        for (int p = 0; p < k; p++, wi += oc) {
            int s = base + taps[p];
            FloatVector w0 = FloatVector.fromArray(S, w, wi);
            FloatVector w1 = FloatVector.fromArray(S, w, wi + L);
            FloatVector v = FloatVector.broadcast(S, x[s]);
            a00 = v.fma(w0, a00);
            a01 = v.fma(w1, a01);
            v = FloatVector.broadcast(S, x[s + pixelStep]);
            a10 = v.fma(w0, a10);
            a11 = v.fma(w1, a11);
            v = FloatVector.broadcast(S, x[s + 2 * pixelStep]);
            a20 = v.fma(w0, a20);
            a21 = v.fma(w1, a21);
            v = FloatVector.broadcast(S, x[s + 3 * pixelStep]);
            a30 = v.fma(w0, a30);
            a31 = v.fma(w1, a31);
            v = FloatVector.broadcast(S, x[s + 4 * pixelStep]);
            a40 = v.fma(w0, a40);
            a41 = v.fma(w1, a41);
            v = FloatVector.broadcast(S, x[s + 5 * pixelStep]);
            a50 = v.fma(w0, a50);
            a51 = v.fma(w1, a51);
            v = FloatVector.broadcast(S, x[s + 6 * pixelStep]);
            a60 = v.fma(w0, a60);
            a61 = v.fma(w1, a61);
            v = FloatVector.broadcast(S, x[s + 7 * pixelStep]);
            a70 = v.fma(w0, a70);
            a71 = v.fma(w1, a71);
        }
        if (bias != null) {
            FloatVector b0 = FloatVector.fromArray(S, bias, bi);
            FloatVector b1 = FloatVector.fromArray(S, bias, bi + L);
            a00 = a00.add(b0);
            a01 = a01.add(b1);
            a10 = a10.add(b0);
            a11 = a11.add(b1);
            a20 = a20.add(b0);
            a21 = a21.add(b1);
            a30 = a30.add(b0);
            a31 = a31.add(b1);
            a40 = a40.add(b0);
            a41 = a41.add(b1);
            a50 = a50.add(b0);
            a51 = a51.add(b1);
            a60 = a60.add(b0);
            a61 = a61.add(b1);
            a70 = a70.add(b0);
            a71 = a71.add(b1);
        }
        if (relu) {
            a00 = a00.max(0f);
            a01 = a01.max(0f);
            a10 = a10.max(0f);
            a11 = a11.max(0f);
            a20 = a20.max(0f);
            a21 = a21.max(0f);
            a30 = a30.max(0f);
            a31 = a31.max(0f);
            a40 = a40.max(0f);
            a41 = a41.max(0f);
            a50 = a50.max(0f);
            a51 = a51.max(0f);
            a60 = a60.max(0f);
            a61 = a61.max(0f);
            a70 = a70.max(0f);
            a71 = a71.max(0f);
        }
        a00.intoArray(y, yi);
        a01.intoArray(y, yi + L);
        a10.intoArray(y, yi + oc);
        a11.intoArray(y, yi + oc + L);
        a20.intoArray(y, yi + 2 * oc);
        a21.intoArray(y, yi + 2 * oc + L);
        a30.intoArray(y, yi + 3 * oc);
        a31.intoArray(y, yi + 3 * oc + L);
        a40.intoArray(y, yi + 4 * oc);
        a41.intoArray(y, yi + 4 * oc + L);
        a50.intoArray(y, yi + 5 * oc);
        a51.intoArray(y, yi + 5 * oc + L);
        a60.intoArray(y, yi + 6 * oc);
        a61.intoArray(y, yi + 6 * oc + L);
        a70.intoArray(y, yi + 7 * oc);
        a71.intoArray(y, yi + 7 * oc + L);
    }

    /** Four pixels x two vectors of channels. */
    private static void pixels2(float[] x, int base, int[] taps, int k, int pixelStep, float[] w, int wi, int oc,
                                float[] bias, int bi, boolean relu, float[] y, int yi) {
        FloatVector a00 = FloatVector.zero(S);
        FloatVector a01 = a00;
        FloatVector a10 = a00;
        FloatVector a11 = a00;
        FloatVector a20 = a00;
        FloatVector a21 = a00;
        FloatVector a30 = a00;
        FloatVector a31 = a00;
        int p1 = pixelStep;
        int p2 = 2 * pixelStep;
        int p3 = 3 * pixelStep;
        for (int p = 0; p < k; p++, wi += oc) {
            int s = base + taps[p];
            FloatVector w0 = FloatVector.fromArray(S, w, wi);
            FloatVector w1 = FloatVector.fromArray(S, w, wi + L);
            FloatVector v0 = FloatVector.broadcast(S, x[s]);
            a00 = v0.fma(w0, a00);
            a01 = v0.fma(w1, a01);
            FloatVector v1 = FloatVector.broadcast(S, x[s + p1]);
            a10 = v1.fma(w0, a10);
            a11 = v1.fma(w1, a11);
            FloatVector v2 = FloatVector.broadcast(S, x[s + p2]);
            a20 = v2.fma(w0, a20);
            a21 = v2.fma(w1, a21);
            FloatVector v3 = FloatVector.broadcast(S, x[s + p3]);
            a30 = v3.fma(w0, a30);
            a31 = v3.fma(w1, a31);
        }
        // Written out here: a vector passed to a call that is not inlined is an object on the heap, and
        // whether a call is inlined depends on what else the JIT has seen.
        if (bias != null) {
            FloatVector b0 = FloatVector.fromArray(S, bias, bi);
            FloatVector b1 = FloatVector.fromArray(S, bias, bi + L);
            a00 = a00.add(b0);
            a01 = a01.add(b1);
            a10 = a10.add(b0);
            a11 = a11.add(b1);
            a20 = a20.add(b0);
            a21 = a21.add(b1);
            a30 = a30.add(b0);
            a31 = a31.add(b1);
        }
        if (relu) {
            a00 = a00.max(0f);
            a01 = a01.max(0f);
            a10 = a10.max(0f);
            a11 = a11.max(0f);
            a20 = a20.max(0f);
            a21 = a21.max(0f);
            a30 = a30.max(0f);
            a31 = a31.max(0f);
        }
        a00.intoArray(y, yi);
        a01.intoArray(y, yi + L);
        a10.intoArray(y, yi + oc);
        a11.intoArray(y, yi + oc + L);
        a20.intoArray(y, yi + 2 * oc);
        a21.intoArray(y, yi + 2 * oc + L);
        a30.intoArray(y, yi + 3 * oc);
        a31.intoArray(y, yi + 3 * oc + L);
    }

    /** Four pixels x one vector of channels, its first {@code lanes} only. */
    private static void pixels1(float[] x, int base, int[] taps, int k, int pixelStep, float[] w, int wi, int oc,
                                float[] bias, int bi, boolean relu, float[] y, int yi, int lanes) {
        VectorMask<Float> m = S.indexInRange(0, lanes);
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        for (int p = 0; p < k; p++, wi += oc) {
            int s = base + taps[p];
            FloatVector w0 = FloatVector.fromArray(S, w, wi, m);
            a0 = FloatVector.broadcast(S, x[s]).fma(w0, a0);
            a1 = FloatVector.broadcast(S, x[s + pixelStep]).fma(w0, a1);
            a2 = FloatVector.broadcast(S, x[s + 2 * pixelStep]).fma(w0, a2);
            a3 = FloatVector.broadcast(S, x[s + 3 * pixelStep]).fma(w0, a3);
        }

        // Written out here: a mask or vector passed to a call that is not inlined is an object on the heap.
        if (bias != null) {
            FloatVector b = FloatVector.fromArray(S, bias, bi, m);
            a0 = a0.add(b);
            a1 = a1.add(b);
            a2 = a2.add(b);
            a3 = a3.add(b);
        }
        if (relu) {
            a0 = a0.max(0f);
            a1 = a1.max(0f);
            a2 = a2.max(0f);
            a3 = a3.max(0f);
        }
        a0.intoArray(y, yi, m);
        a1.intoArray(y, yi + oc, m);
        a2.intoArray(y, yi + 2 * oc, m);
        a3.intoArray(y, yi + 3 * oc, m);
    }

    /**
     * One output pixel, all channels: its window is {@code kh} runs of {@code kwc} floats in {@code src} from
     * {@code base}, {@code stride} apart.
     */
    private static void pixel(float[] src, int base, int stride, int kh, int kwc, float[] w, int wOff, int oc,
                              float[] bias, int biasOff, boolean relu, float[] y, int yi) {
        int j = 0;
        for (; j + 4 * L <= oc; j += 4 * L) {
            pixel4(src, base, stride, kh, kwc, w, wOff + j, oc, bias, biasOff + j, relu, y, yi + j);
        }
        if (j + 2 * L <= oc) {
            pixel2(src, base, stride, kh, kwc, w, wOff + j, oc, bias, biasOff + j, relu, y, yi + j);
            j += 2 * L;
        }
        for (; j < oc; j += L) {
            pixel1(src, base, stride, kh, kwc, w, wOff + j, oc, bias, biasOff + j, relu, y, yi + j, oc - j);
        }
    }

    private static void pixel4(float[] src, int base, int stride, int kh, int kwc, float[] w, int wi, int oc,
                               float[] bias, int bi, boolean relu, float[] y, int yi) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        for (int i = 0; i < kh; i++) {
            int s = base + i * stride;
            for (int q = 0; q < kwc; q++, wi += oc) {
                FloatVector v = FloatVector.broadcast(S, src[s + q]);
                a0 = v.fma(FloatVector.fromArray(S, w, wi), a0);
                a1 = v.fma(FloatVector.fromArray(S, w, wi + L), a1);
                a2 = v.fma(FloatVector.fromArray(S, w, wi + 2 * L), a2);
                a3 = v.fma(FloatVector.fromArray(S, w, wi + 3 * L), a3);
            }
        }
        // Written out here: a vector passed to a call that is not inlined is an object on the heap, and
        // whether a call is inlined depends on what else the JIT has seen.
        if (bias != null) {
            FloatVector b0 = FloatVector.fromArray(S, bias, bi);
            FloatVector b1 = FloatVector.fromArray(S, bias, bi + 2 * L);
            FloatVector b2 = FloatVector.fromArray(S, bias, bi + 3 * L);
            FloatVector b3 = FloatVector.fromArray(S, bias, bi + L);
            a0 = a0.add(b0);
            a1 = a1.add(b3);
            a2 = a2.add(b1);
            a3 = a3.add(b2);
        }
        if (relu) {
            a0 = a0.max(0f);
            a1 = a1.max(0f);
            a2 = a2.max(0f);
            a3 = a3.max(0f);
        }
        a0.intoArray(y, yi);
        a1.intoArray(y, yi + L);
        a2.intoArray(y, yi + 2 * L);
        a3.intoArray(y, yi + 3 * L);
    }

    private static void pixel2(float[] src, int base, int stride, int kh, int kwc, float[] w, int wi, int oc,
                               float[] bias, int bi, boolean relu, float[] y, int yi) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        for (int i = 0; i < kh; i++) {
            int s = base + i * stride;
            for (int q = 0; q < kwc; q++, wi += oc) {
                FloatVector v = FloatVector.broadcast(S, src[s + q]);
                a0 = v.fma(FloatVector.fromArray(S, w, wi), a0);
                a1 = v.fma(FloatVector.fromArray(S, w, wi + L), a1);
            }
        }
        // Written out here: a vector passed to a call that is not inlined is an object on the heap, and
        // whether a call is inlined depends on what else the JIT has seen.
        if (bias != null) {
            FloatVector b0 = FloatVector.fromArray(S, bias, bi);
            FloatVector b1 = FloatVector.fromArray(S, bias, bi + L);
            a0 = a0.add(b0);
            a1 = a1.add(b1);
        }
        if (relu) {
            a0 = a0.max(0f);
            a1 = a1.max(0f);
        }
        a0.intoArray(y, yi);
        a1.intoArray(y, yi + L);
    }

    /** One vector of channels, its first {@code lanes} only (the last vector may be partial). */
    private static void pixel1(float[] src, int base, int stride, int kh, int kwc, float[] w, int wi, int oc,
                               float[] bias, int bi, boolean relu, float[] y, int yi, int lanes) {
        VectorMask<Float> m = S.indexInRange(0, lanes);
        FloatVector a0 = FloatVector.zero(S);
        for (int i = 0; i < kh; i++) {
            int s = base + i * stride;
            for (int q = 0; q < kwc; q++, wi += oc) {
                a0 = FloatVector.broadcast(S, src[s + q]).fma(FloatVector.fromArray(S, w, wi, m), a0);
            }
        }
        if (bias != null) {
            a0 = a0.add(FloatVector.fromArray(S, bias, bi, m));
        }
        if (relu) {
            a0 = a0.max(0f);
        }
        a0.intoArray(y, yi, m);
    }
}
