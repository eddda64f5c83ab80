package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * Convolutions whose result has one vector of channels (more than half of one: 16 channels in 512-bit vectors),
 * straight from a zero-padded copy of each image. Through im2col + gemm such a convolution copied {@code kh kw cin}
 * floats per output pixel for only {@code kh kw cin x oc} multiply-adds (twice the share of a 32-channel one) and
 * ran at about half the speed of 32 and 64 channels, bound by loads (a broadcast per FMA in gemm's one-vector tile);
 * the direct kernel {@link VectorDirectConv} computed four pixels of one vector at a time, too few chains to cover
 * the FMA latency, and its border pixels one at a time. Here sixteen, fourteen or twelve pixels of a row (or twelve
 * taps of the filter gradient) are independent chains, every pixel goes through the same kernel (the padded copy,
 * {@link PaddedImage}, holds the zeros), and a call allocates nothing.
 *
 * <ul>
 *   <li>Forward: each output lane is one FMA chain over the taps in im2col's {@code (i, j, c)} order from zero,
 *       then {@code + bias}, then {@code max(0)}: gemm's arithmetic over a single depth block, so the same bits as
 *       {@link VectorConv#viaColumns} and {@link VectorDirectConv} ({@link #applies} keeps the depth within one
 *       block, {@link VectorGemm#KC}).</li>
 *   <li>Input gradient at stride 1 ({@link VectorNarrowInputGradient}): the forward convolution of dy, padded by
 *       {@code k - 1 - pad}, with the kernel turned 180 degrees and its channel axes swapped
 *       ({@link #inputGradientApplies}); one chain per input element over {@code (i, j, co)}.</li>
 *   <li>Filter gradient ({@link VectorNarrowFilterGradient}): per image, one chain per tap and channel over the
 *       image's output pixels from zero, then added to the images before it in order
 *       ({@link #filterGradientApplies}).</li>
 * </ul>
 * This class holds the forward kernels and the rules for which convolutions take the three passes; {@link VectorConv}
 * asks the rules here and calls each pass's class.
 * Each image is computed on one thread with a fixed order, so the result does not depend on how the images are
 * split across threads (the filter gradient's batch split is {@link VectorConv#backwardFilter}'s).
 */
final class VectorNarrowConv {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /**
     * Pixels (forward) or taps (filter gradient) computed together: twelve chains of one vector keep both FMA units
     * busy through their latency, with the 32 registers of 512-bit vectors to spare.
     */
    static final int BLOCK = 12;
    /**
     * Pixels of a row computed together by {@link #row3}: sixteen accumulators, three weight vectors and a broadcast
     * fit the 32 registers of 512-bit vectors; eighteen broadcasts feed 48 FMAs (eight pixels: ten for 24, measured
     * about 9% slower on 28-pixel rows).
     */
    static final int ROW = 16;
    /** Pixels of a row computed together by {@link #row3Short}, where they waste fewer than {@link #ROW} do. */
    static final int SHORT_ROW = 14;
    /** Below this many multiply-adds the convolution runs on the calling thread. */
    private static final long PARALLEL_MIN_MACS = 1L << 17;

    private VectorNarrowConv() {
    }

    /** Whether {@code channels} fill one vector, more than half of it (fewer waste most of each FMA). */
    private static boolean narrow(int channels) {
        return channels <= L && 2 * channels > L;
    }

    /**
     * Whether the forward convolution runs here: one vector of output channels, a depth within gemm's block (the
     * same bits as gemm), and output rows of at least {@link #BLOCK} pixels.
     */
    static boolean applies(ConvGeometry g) {
        return narrow(g.outChannels()) && Im2Col.rowLength(g) <= VectorGemm.KC && g.outW() >= BLOCK;
    }

    /**
     * Whether the input gradient runs here: stride 1, one vector of input channels, the flipped kernel's depth
     * {@code kh kw oc} within a block, input rows of at least {@link #BLOCK} pixels, and padding that leaves each
     * window at least one row and column of the image (so the transposed convolution's padding is not negative).
     */
    static boolean inputGradientApplies(ConvGeometry g) {
        return g.strideH() == 1 && g.strideW() == 1 && narrow(g.channels())
                && g.kernelH() * g.kernelW() * g.outChannels() <= VectorGemm.KC && g.width() >= BLOCK
                && g.padTop() < g.kernelH() && g.padLeft() < g.kernelW();
    }

    /** Whether the filter gradient runs here: one vector of output channels, rows of at least a few pixels. */
    static boolean filterGradientApplies(ConvGeometry g) {
        return narrow(g.outChannels()) && g.outW() >= 4;
    }

    /** {@code y = conv2d(x, w) (+ bias)}, then relu if {@code relu}; a null {@code bias} adds nothing. */
    static void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                       boolean relu, float[] y, int yOff) {
        run(g, x, xOff, pack(g, w, wOff, bias, biasOff), bias != null, relu, y, yOff);
    }

    /**
     * {@link #conv2d}, then max pooling of each image (with its cells, unless {@code cells} is null) while it is in
     * this thread's buffer; the convolution's output is written nowhere else. Images split across threads. For
     * what {@link VectorConv#poolsInCache} accepts.
     */
    static void conv2dMaxPool(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                              boolean relu, PoolGeometry p, float[] y, int yOff, float[] cells, int cellsOff) {
        float[] filter = pack(g, w, wOff, bias, biasOff);
        boolean hasBias = bias != null;
        if (Split.serial(g.batch(), 1)) {
            pooledImages(g, x, xOff, filter, hasBias, relu, p, y, yOff, cells, cellsOff, 0, g.batch());
            return;
        }
        ConvArgs r = ConvArgs.get();
        r.conv = g;
        r.x = x;
        r.xOff = xOff;
        r.w = filter;
        r.relu = relu;
        r.slots = hasBias ? 1 : 0;
        r.out = y;
        r.outOff = yOff;
        r.pool = p;
        r.cells = cells;
        r.cellsOff = cellsOff;
        r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> pooledImages(a.conv, a.x, a.xOff, a.w,
                a.slots == 1, a.relu, a.pool, a.out, a.outOff, a.cells, a.cellsOff, n0, n1));
    }

    /** Images {@code [n0, n1)} of {@link #conv2dMaxPool}, on the calling thread. */
    private static void pooledImages(ConvGeometry g, float[] x, int xOff, float[] filter, boolean hasBias,
                                     boolean relu, PoolGeometry p, float[] y, int yOff, float[] cells, int cellsOff,
                                     int n0, int n1) {
        int imageSize = g.outH() * g.outW() * g.outChannels();
        float[] image = Scratch.get().image(imageSize);
        for (int n = n0; n < n1; n++) {
            // The buffer holds image n alone: offsets are those of the whole batch's output, less n images.
            int shift = -n * imageSize;
            images(g, x, xOff, filter, hasBias, relu, image, shift, n, n + 1);
            VectorPool.maxPoolRows(p, image, shift, y, yOff, cells, cellsOff, n * p.outH(), (n + 1) * p.outH());
        }
    }

    /**
     * The filter as {@code k} rows of one vector (each tap's channels padded with zeros), then the bias padded to
     * one vector (zeros without one): whole-vector loads in the loops, none of the caller's arrays masked.
     */
    private static float[] pack(ConvGeometry g, float[] w, int wOff, float[] bias, int biasOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        float[] filter = Scratch.get().narrowFilter((k + 1) * L);
        for (int p = 0; p < k; p++) {
            System.arraycopy(w, wOff + p * oc, filter, p * L, oc);
            Arrays.fill(filter, p * L + oc, (p + 1) * L, 0f);
        }
        Arrays.fill(filter, k * L, (k + 1) * L, 0f);
        if (bias != null) {
            System.arraycopy(bias, biasOff, filter, k * L, oc);
        }
        return filter;
    }

    /**
     * The forward kernel over the batch, with the filter (and bias) as {@link #pack} lays them out; the input
     * gradient ({@link VectorNarrowInputGradient}) runs it on dy with its own filter.
     */
    static void run(ConvGeometry g, float[] x, int xOff, float[] filter, boolean hasBias, boolean relu,
                            float[] y, int yOff) {
        long macs = (long) g.batch() * g.outH() * g.outW() * Im2Col.rowLength(g) * g.outChannels();
        if (macs < PARALLEL_MIN_MACS || Split.serial(g.batch(), 1)) {
            images(g, x, xOff, filter, hasBias, relu, y, yOff, 0, g.batch());
            return;
        }
        ConvArgs r = ConvArgs.get();
        r.conv = g;
        r.x = x;
        r.xOff = xOff;
        r.w = filter;
        r.relu = relu;
        r.slots = hasBias ? 1 : 0;
        r.out = y;
        r.outOff = yOff;
        // Images: each output is written once, from its own window, so any boundary will do.
        r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> images(a.conv, a.x, a.xOff, a.w,
                a.slots == 1, a.relu, a.out, a.outOff, n0, n1));
    }

    /** Forward images {@code [n0, n1)} on the calling thread. */
    private static void images(ConvGeometry g, float[] x, int xOff, float[] filter, boolean hasBias, boolean relu,
                               float[] y, int yOff, int n0, int n1) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        Scratch scratch = Scratch.get();
        int[] taps = scratch.taps(k);
        PaddedImage.taps(g, taps, k);
        int rowStride = PaddedImage.rowStride(g);
        float[] tile = scratch.tile(Math.max(BLOCK, ROW) * L);
        int pixelStep = g.strideW() * g.channels();
        int outW = g.outW();
        boolean rows = byRows(g);
        int block = rows ? rowBlock(outW) : BLOCK;
        for (int n = n0; n < n1; n++) {
            float[] image = PaddedImage.of(g, x, xOff, n);
            int imageBase = PaddedImage.base(g, xOff, n);
            for (int oh = 0; oh < g.outH(); oh++) {
                int rowBase = imageBase + oh * g.strideH() * rowStride;
                int yRow = yOff + (n * g.outH() + oh) * outW * oc;
                for (int o = 0; o < outW; o += block) {
                    // The last block ends at the row's end, recomputing a few pixels (the same bits).
                    int start = Math.min(o, outW - block);
                    if (rows && block == SHORT_ROW) {
                        row3Short(image, rowBase + start * pixelStep, g.kernelH(), g.channels(), rowStride, filter,
                                tile);
                    } else if (rows) {
                        row3(image, rowBase + start * pixelStep, g.kernelH(), g.channels(), rowStride, filter, tile);
                    } else {
                        pixels(image, rowBase + start * pixelStep, taps, k, pixelStep, filter, tile);
                    }
                    finish(tile, block, filter, k * L, hasBias, relu, y, yRow + start * oc, oc);
                }
            }
        }
    }

    /**
     * Whether {@link #row3} computes this convolution: a kernel three wide at stride 1 along the row, rows of at least
     * {@link #ROW} pixels. Each input value then serves three taps of three adjacent pixels, so one broadcast feeds
     * three FMAs (twelve pixels of {@link #pixels} load one broadcast per FMA, and the loads bound the speed).
     */
    static boolean byRows(ConvGeometry g) {
        return g.kernelW() == 3 && g.strideW() == 1 && g.outW() >= ROW;
    }

    /**
     * The pixels {@link #row3} or {@link #row3Short} compute together on rows of {@code outW} pixels: whichever
     * recomputes fewer pixels at the row's end (the last block ends at the row's end), sixteen on a tie.
     */
    static int rowBlock(int outW) {
        int wasteShort = VectorGemm.ceilDiv(outW, SHORT_ROW) * SHORT_ROW - outW;
        int waste = VectorGemm.ceilDiv(outW, ROW) * ROW - outW;
        return wasteShort < waste ? SHORT_ROW : ROW;
    }

    /**
     * {@link #ROW} adjacent pixels of a row from {@code base} (kernel three wide, stride 1): each a chain from zero
     * over the taps in {@code (i, c, j)} order (kernel row, input channel, kernel column), into tile. For each
     * kernel row and channel, the eighteen input values the pixels read are broadcast once each and multiplied by the
     * three taps' weight vectors. The order is not im2col's, so the bits are not gemm's: every path that computes
     * such a convolution forward (with or without pooling) comes here.
     */
    private static void row3(float[] x, int base, int kh, int c, int rowStride, float[] filter, float[] tile) {
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
        FloatVector a12 = a0;
        FloatVector a13 = a0;
        FloatVector a14 = a0;
        FloatVector a15 = a0;
        int cl = c * L;
        for (int i = 0; i < kh; i++) {
            int s = base + i * rowStride;
            int wi = 3 * i * cl;
            for (int ch = 0; ch < c; ch++, s++, wi += L) {
                FloatVector w0 = FloatVector.fromArray(S, filter, wi);
                FloatVector w1 = FloatVector.fromArray(S, filter, wi + cl);
                FloatVector w2 = FloatVector.fromArray(S, filter, wi + 2 * cl);
                FloatVector v = FloatVector.broadcast(S, x[s]);
                a0 = v.fma(w0, a0);
                v = FloatVector.broadcast(S, x[s + c]);
                a1 = v.fma(w0, a1);
                a0 = v.fma(w1, a0);
                v = FloatVector.broadcast(S, x[s + 2 * c]);
                a2 = v.fma(w0, a2);
                a1 = v.fma(w1, a1);
                a0 = v.fma(w2, a0);
                v = FloatVector.broadcast(S, x[s + 3 * c]);
                a3 = v.fma(w0, a3);
                a2 = v.fma(w1, a2);
                a1 = v.fma(w2, a1);
                v = FloatVector.broadcast(S, x[s + 4 * c]);
                a4 = v.fma(w0, a4);
                a3 = v.fma(w1, a3);
                a2 = v.fma(w2, a2);
                v = FloatVector.broadcast(S, x[s + 5 * c]);
                a5 = v.fma(w0, a5);
                a4 = v.fma(w1, a4);
                a3 = v.fma(w2, a3);
                v = FloatVector.broadcast(S, x[s + 6 * c]);
                a6 = v.fma(w0, a6);
                a5 = v.fma(w1, a5);
                a4 = v.fma(w2, a4);
                v = FloatVector.broadcast(S, x[s + 7 * c]);
                a7 = v.fma(w0, a7);
                a6 = v.fma(w1, a6);
                a5 = v.fma(w2, a5);
                v = FloatVector.broadcast(S, x[s + 8 * c]);
                a8 = v.fma(w0, a8);
                a7 = v.fma(w1, a7);
                a6 = v.fma(w2, a6);
                v = FloatVector.broadcast(S, x[s + 9 * c]);
                a9 = v.fma(w0, a9);
                a8 = v.fma(w1, a8);
                a7 = v.fma(w2, a7);
                v = FloatVector.broadcast(S, x[s + 10 * c]);
                a10 = v.fma(w0, a10);
                a9 = v.fma(w1, a9);
                a8 = v.fma(w2, a8);
                v = FloatVector.broadcast(S, x[s + 11 * c]);
                a11 = v.fma(w0, a11);
                a10 = v.fma(w1, a10);
                a9 = v.fma(w2, a9);
                v = FloatVector.broadcast(S, x[s + 12 * c]);
                a12 = v.fma(w0, a12);
                a11 = v.fma(w1, a11);
                a10 = v.fma(w2, a10);
                v = FloatVector.broadcast(S, x[s + 13 * c]);
                a13 = v.fma(w0, a13);
                a12 = v.fma(w1, a12);
                a11 = v.fma(w2, a11);
                v = FloatVector.broadcast(S, x[s + 14 * c]);
                a14 = v.fma(w0, a14);
                a13 = v.fma(w1, a13);
                a12 = v.fma(w2, a12);
                v = FloatVector.broadcast(S, x[s + 15 * c]);
                a15 = v.fma(w0, a15);
                a14 = v.fma(w1, a14);
                a13 = v.fma(w2, a13);
                v = FloatVector.broadcast(S, x[s + 16 * c]);
                a15 = v.fma(w1, a15);
                a14 = v.fma(w2, a14);
                v = FloatVector.broadcast(S, x[s + 17 * c]);
                a15 = v.fma(w2, a15);
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
        a12.intoArray(tile, 12 * L);
        a13.intoArray(tile, 13 * L);
        a14.intoArray(tile, 14 * L);
        a15.intoArray(tile, 15 * L);
    }

    /**
     * {@link #row3} for {@link #SHORT_ROW} pixels: the same chain for each pixel (so the same bits), for rows that
     * blocks of fourteen cover with fewer recomputed pixels than blocks of sixteen (28 pixels: none, against four).
     */
    private static void row3Short(float[] x, int base, int kh, int c, int rowStride, float[] filter, float[] tile) {
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
        FloatVector a12 = a0;
        FloatVector a13 = a0;
        int cl = c * L;
        for (int i = 0; i < kh; i++) {
            int s = base + i * rowStride;
            int wi = 3 * i * cl;
            for (int ch = 0; ch < c; ch++, s++, wi += L) {
                FloatVector w0 = FloatVector.fromArray(S, filter, wi);
                FloatVector w1 = FloatVector.fromArray(S, filter, wi + cl);
                FloatVector w2 = FloatVector.fromArray(S, filter, wi + 2 * cl);
                FloatVector v = FloatVector.broadcast(S, x[s]);
                a0 = v.fma(w0, a0);
                v = FloatVector.broadcast(S, x[s + c]);
                a1 = v.fma(w0, a1);
                a0 = v.fma(w1, a0);
                v = FloatVector.broadcast(S, x[s + 2 * c]);
                a2 = v.fma(w0, a2);
                a1 = v.fma(w1, a1);
                a0 = v.fma(w2, a0);
                v = FloatVector.broadcast(S, x[s + 3 * c]);
                a3 = v.fma(w0, a3);
                a2 = v.fma(w1, a2);
                a1 = v.fma(w2, a1);
                v = FloatVector.broadcast(S, x[s + 4 * c]);
                a4 = v.fma(w0, a4);
                a3 = v.fma(w1, a3);
                a2 = v.fma(w2, a2);
                v = FloatVector.broadcast(S, x[s + 5 * c]);
                a5 = v.fma(w0, a5);
                a4 = v.fma(w1, a4);
                a3 = v.fma(w2, a3);
                v = FloatVector.broadcast(S, x[s + 6 * c]);
                a6 = v.fma(w0, a6);
                a5 = v.fma(w1, a5);
                a4 = v.fma(w2, a4);
                v = FloatVector.broadcast(S, x[s + 7 * c]);
                a7 = v.fma(w0, a7);
                a6 = v.fma(w1, a6);
                a5 = v.fma(w2, a5);
                v = FloatVector.broadcast(S, x[s + 8 * c]);
                a8 = v.fma(w0, a8);
                a7 = v.fma(w1, a7);
                a6 = v.fma(w2, a6);
                v = FloatVector.broadcast(S, x[s + 9 * c]);
                a9 = v.fma(w0, a9);
                a8 = v.fma(w1, a8);
                a7 = v.fma(w2, a7);
                v = FloatVector.broadcast(S, x[s + 10 * c]);
                a10 = v.fma(w0, a10);
                a9 = v.fma(w1, a9);
                a8 = v.fma(w2, a8);
                v = FloatVector.broadcast(S, x[s + 11 * c]);
                a11 = v.fma(w0, a11);
                a10 = v.fma(w1, a10);
                a9 = v.fma(w2, a9);
                v = FloatVector.broadcast(S, x[s + 12 * c]);
                a12 = v.fma(w0, a12);
                a11 = v.fma(w1, a11);
                a10 = v.fma(w2, a10);
                v = FloatVector.broadcast(S, x[s + 13 * c]);
                a13 = v.fma(w0, a13);
                a12 = v.fma(w1, a12);
                a11 = v.fma(w2, a11);
                v = FloatVector.broadcast(S, x[s + 14 * c]);
                a13 = v.fma(w1, a13);
                a12 = v.fma(w2, a12);
                v = FloatVector.broadcast(S, x[s + 15 * c]);
                a13 = v.fma(w2, a13);
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
        a12.intoArray(tile, 12 * L);
        a13.intoArray(tile, 13 * L);
    }

    /** Twelve pixels {@code pixelStep} apart from {@code base}: each a chain over the taps from zero, into tile. */
    private static void pixels(float[] x, int base, int[] taps, int k, int pixelStep, float[] filter, float[] tile) {
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
        int p1 = pixelStep;
        int p2 = 2 * pixelStep;
        int p3 = 3 * pixelStep;
        int p4 = 4 * pixelStep;
        int p5 = 5 * pixelStep;
        int p6 = 6 * pixelStep;
        int p7 = 7 * pixelStep;
        int p8 = 8 * pixelStep;
        int p9 = 9 * pixelStep;
        int p10 = 10 * pixelStep;
        int p11 = 11 * pixelStep;
        for (int p = 0, wi = 0; p < k; p++, wi += L) {
            int s = base + taps[p];
            FloatVector wv = FloatVector.fromArray(S, filter, wi);
            a0 = FloatVector.broadcast(S, x[s]).fma(wv, a0);
            a1 = FloatVector.broadcast(S, x[s + p1]).fma(wv, a1);
            a2 = FloatVector.broadcast(S, x[s + p2]).fma(wv, a2);
            a3 = FloatVector.broadcast(S, x[s + p3]).fma(wv, a3);
            a4 = FloatVector.broadcast(S, x[s + p4]).fma(wv, a4);
            a5 = FloatVector.broadcast(S, x[s + p5]).fma(wv, a5);
            a6 = FloatVector.broadcast(S, x[s + p6]).fma(wv, a6);
            a7 = FloatVector.broadcast(S, x[s + p7]).fma(wv, a7);
            a8 = FloatVector.broadcast(S, x[s + p8]).fma(wv, a8);
            a9 = FloatVector.broadcast(S, x[s + p9]).fma(wv, a9);
            a10 = FloatVector.broadcast(S, x[s + p10]).fma(wv, a10);
            a11 = FloatVector.broadcast(S, x[s + p11]).fma(wv, a11);
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

    /**
     * Stores the tile's first {@code pixels} pixels at {@code yi}, {@code oc} apart, after {@code + bias} (the vector
     * at {@code filter[biasAt]}) and relu as gemm's epilogue does them ({@link VectorEpilogue#biasRelu}).
     */
    private static void finish(float[] tile, int pixels, float[] filter, int biasAt, boolean hasBias, boolean relu,
                               float[] y, int yi, int oc) {
        FloatVector b = FloatVector.fromArray(S, filter, biasAt);
        VectorMask<Float> m = S.indexInRange(0, oc);
        for (int q = 0; q < pixels; q++, yi += oc) {
            FloatVector v = FloatVector.fromArray(S, tile, q * L);
            if (hasBias) {
                v = v.add(b);
            }
            if (relu) {
                v = v.max(0f);
            }
            if (oc == L) {
                v.intoArray(y, yi);
            } else if (yi + L <= y.length) {
                v.intoArray(y, yi, m);
            } else {
                // A masked store past the array's end takes the Vector API's slow path, which allocates.
                v.intoArray(tile, q * L);
                System.arraycopy(tile, q * L, y, yi, oc);
            }
        }
    }
}
