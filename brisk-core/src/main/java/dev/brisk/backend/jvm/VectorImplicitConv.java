package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.UnaryFn;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The forward convolution as gemm over the column matrix without building it: gemm's register tile ({@link
 * VectorGemm#MR} output pixels by two vectors of channels) broadcasts each pixel's window straight from the image,
 * or from its zero-padded copy ({@link PaddedImage}), where one kernel row's taps are one run of {@code kw cin}
 * floats. im2col wrote {@code kh kw cin} floats per output pixel and gemm read them back, a fifth to a third of
 * the forward pass at 32-64 channels.
 *
 * <p>Every output element is the chain gemm gives it: from zero over each depth block ({@link VectorGemm#KC}) in
 * im2col's {@code (i, j, c)} order, the blocks added to the output in order, then {@code + bias} and relu
 * ({@link VectorEpilogue#biasRelu}); so the same bits as {@link VectorConv#viaColumns}, at any split of the images
 * across threads.
 */
final class VectorImplicitConv {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final int MR = VectorGemm.MR;
    private static final int NR = VectorGemm.NR;
    /** Below this many multiply-adds the convolution runs on the calling thread. */
    private static final long PARALLEL_MIN_MACS = 1L << 17;

    private VectorImplicitConv() {
    }

    /**
     * Whether this path computes the convolution: no activation or relu, one panel of output channels, and kernel
     * rows of at least two vectors of floats (shorter runs are the shallow kernels of {@link VectorDirectConv}).
     * {@link #conv2d} takes any whole number of panels, but with two (64 channels on 512-bit vectors) it measured
     * no faster than im2col + gemm (0.98-1.01x, against 1.12-1.23x with one): the column matrix's share of the
     * work halves as the channels double.
     */
    static boolean applies(ConvGeometry g, UnaryFn fn) {
        return (fn == null || fn == UnaryFn.RELU) && g.outChannels() == NR
                && g.kernelW() * g.channels() >= 2 * L;
    }

    /**
     * {@code y = conv2d(x, w) (+ bias)}, then relu if {@code relu}; a null {@code bias} adds nothing. Any whole
     * number of panels of output channels.
     */
    static void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                       boolean relu, float[] y, int yOff) {
        // One panel's rows are the kernel's own rows: it is read in place.
        boolean onePanel = g.outChannels() == NR;
        float[] panels = onePanel ? w : pack(g, w, wOff);
        int panelsOff = onePanel ? wOff : 0;
        long macs = (long) g.batch() * g.outH() * g.outW() * Im2Col.rowLength(g) * g.outChannels();
        if (macs < PARALLEL_MIN_MACS || Split.serial(g.batch(), 1)) {
            images(g, x, xOff, panels, panelsOff, bias, biasOff, relu, y, yOff, 0, g.batch());
            return;
        }
        ConvArgs r = ConvArgs.get();
        r.conv = g;
        r.x = x;
        r.xOff = xOff;
        r.w = panels;
        r.wOff = panelsOff;
        r.bias = bias;
        r.biasOff = biasOff;
        r.relu = relu;
        r.out = y;
        r.outOff = yOff;
        // Images: each output is written once, from its own window, so any boundary will do.
        r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> images(a.conv, a.x, a.xOff, a.w, a.wOff,
                a.bias, a.biasOff, a.relu, a.out, a.outOff, n0, n1));
    }

    /**
     * The kernel as gemm's packed panels: panel {@code jp} holds, for each depth {@code p}, output channels
     * {@code [jp NR, (jp + 1) NR)} of row p, at {@code (jp k + p) NR}. In the calling thread's scratch; the region's
     * threads only read it.
     */
    private static float[] pack(ConvGeometry g, float[] w, int wOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        float[] panels = Scratch.get().packedFilter(k * oc);
        for (int jp = 0; jp < oc / NR; jp++) {
            for (int p = 0; p < k; p++) {
                System.arraycopy(w, wOff + p * oc + jp * NR, panels, (jp * k + p) * NR, NR);
            }
        }
        return panels;
    }

    /**
     * Images {@code [n0, n1)} on the calling thread: per panel of channels and depth block, every tile of
     * {@link #MR} output pixels (in row-major order) of the image.
     */
    private static void images(ConvGeometry g, float[] x, int xOff, float[] panels, int panelsOff, float[] bias,
                               int biasOff, boolean relu, float[] y, int yOff, int n0, int n1) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        int kc = VectorGemm.ceilDiv(k, VectorGemm.ceilDiv(k, VectorGemm.KC));
        int run = g.kernelW() * g.channels();
        int rowStride = PaddedImage.rowStride(g);
        int pixelStep = g.strideW() * g.channels();
        int rowStep = g.strideH() * rowStride;
        int outW = g.outW();
        int pixels = g.outH() * outW;
        boolean epilogue = bias != null || relu;
        float[] tile = Scratch.get().tile(MR * NR);
        for (int n = n0; n < n1; n++) {
            float[] image = PaddedImage.of(g, x, xOff, n);
            int imageBase = PaddedImage.base(g, xOff, n);
            // As gemm: one panel's depth block stays in L1 while every tile of the image sweeps it.
            for (int jp = 0; jp < oc / NR; jp++) {
                for (int pc = 0; pc < k; pc += kc) {
                    int p1 = Math.min(k, pc + kc);
                    for (int q0 = 0; q0 < pixels; q0 += MR) {
                        int rows = Math.min(MR, pixels - q0);
                        // A tile past the image's last pixel repeats it; those rows are computed and dropped.
                        int last = q0 + rows - 1;
                        int w0 = window(q0, last, imageBase, outW, rowStep, pixelStep);
                        int w1 = window(q0 + 1, last, imageBase, outW, rowStep, pixelStep);
                        int w2 = window(q0 + 2, last, imageBase, outW, rowStep, pixelStep);
                        int w3 = window(q0 + 3, last, imageBase, outW, rowStep, pixelStep);
                        int w4 = window(q0 + 4, last, imageBase, outW, rowStep, pixelStep);
                        int w5 = window(q0 + 5, last, imageBase, outW, rowStep, pixelStep);
                        int ci = yOff + (n * pixels + q0) * oc + jp * NR;
                        if (rows == MR) {
                            VectorGemm.kernelWindows(image, w0, w1, w2, w3, w4, w5, rowStride, run, pc, p1, panels,
                                    panelsOff + jp * k * NR, y, ci, oc, pc > 0);
                        } else {
                            VectorGemm.kernelWindows(image, w0, w1, w2, w3, w4, w5, rowStride, run, pc, p1, panels,
                                    panelsOff + jp * k * NR, tile, 0, NR, false);
                            VectorGemm.mergeTile(tile, rows, NR, y, ci, oc, pc > 0);
                        }
                        if (epilogue && p1 == k) {
                            VectorEpilogue.biasRelu(y, ci, oc, rows, NR, bias, biasOff + jp * NR, relu);
                        }
                    }
                }
            }
        }
    }

    /** Where output pixel {@code min(q, last)}'s window starts. */
    private static int window(int q, int last, int imageBase, int outW, int rowStep, int pixelStep) {
        int pixel = Math.min(q, last);
        return imageBase + pixel / outW * rowStep + pixel % outW * pixelStep;
    }
}
