package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The filter gradient {@code dw = columns^T dy} without the column matrix, for one gemm panel of output channels
 * ({@link VectorGemm#NR}, 32 on 512-bit vectors): a register tile of {@link VectorGemm#MR} taps by the panel
 * broadcasts the six taps of each output pixel's window straight from the (padded) image ({@link PaddedImage}) and
 * loads the pixel's dy, one row of {@code NR} floats (a constant stride, which lets the JIT drop its range checks as
 * in {@code VectorGemm.kernelRows}), twelve accumulators over the pixels. Six neighbouring taps of one kernel row are
 * six neighbouring floats of the window, so a tile needs {@code kw cin} to be a multiple of six. The column path wrote
 * {@code kh kw cin} floats per pixel and read them back transposed, which gemm's kernel does more slowly than it
 * reads rows. With two panels (64 channels), one tile per panel or a 6 x 64 tile measured no faster than the column
 * path, so those keep it.
 *
 * <p>The pixels are taken a few output rows at a time ({@link #BLOCK_PIXELS}), so that their dy and image rows stay
 * in L1 while every tile sweeps them; a tile's accumulators are loaded from dw and stored back between blocks, which
 * continues each chain unchanged. So every element of dw is one chain over the slot's images and pixels in order,
 * from zero: its bits depend on how {@link VectorConv#backwardFilter} splits the batch into slots (as the column
 * path's do), not on the blocking.
 */
final class VectorImplicitFilterGradient {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final int MR = VectorGemm.MR;
    private static final int NR = VectorGemm.NR;
    /**
     * About this many output pixels per block: their dy (14 KiB) and the image rows they read stay in L1 or close
     * to it; 28 and 56 measured slower (more loads and stores of the tiles), 448 too (the rows leave L1).
     */
    private static final int BLOCK_PIXELS = 112;

    private VectorImplicitFilterGradient() {
    }

    /** Whether this path computes the filter gradient: not 1x1, one panel of output channels, tiles in one row. */
    static boolean applies(ConvGeometry g) {
        return !(g.kernelH() == 1 && g.kernelW() == 1) && g.outChannels() == NR
                && g.kernelW() * g.channels() % MR == 0;
    }

    /** {@code dw = sum over images [n0, n1) of columns^T dy}, dw overwritten; on the calling thread. */
    static void filterGradient(ConvGeometry g, int n0, int n1, float[] x, int xOff, float[] dy, int dyOff,
                               float[] dw, int dwOff) {
        int k = Im2Col.rowLength(g);
        if (n0 == n1) {
            Arrays.fill(dw, dwOff, dwOff + k * NR, 0f);
            return;
        }
        int run = g.kernelW() * g.channels();
        int rowStride = PaddedImage.rowStride(g);
        int pixelStep = g.strideW() * g.channels();
        int rowStep = g.strideH() * rowStride;
        int outH = g.outH();
        int outW = g.outW();
        int blockRows = Math.max(1, BLOCK_PIXELS / outW);
        for (int n = n0; n < n1; n++) {
            float[] image = PaddedImage.of(g, x, xOff, n);
            int imageBase = PaddedImage.base(g, xOff, n);
            for (int oh0 = 0; oh0 < outH; oh0 += blockRows) {
                int rows = Math.min(blockRows, outH - oh0);
                boolean first = n == n0 && oh0 == 0;
                int windows = imageBase + oh0 * rowStep;
                int dyRows = dyOff + (n * outH + oh0) * outW * NR;
                for (int t = 0; t < k; t += MR) {
                    // Taps t..t+5 lie in kernel row t / run, at these offsets from each window's start.
                    int tap = t / run * rowStride + t % run;
                    tile(image, windows + tap, rowStep, pixelStep, outW, rows, dy, dyRows, dw, dwOff + t * NR,
                            first);
                }
            }
        }
    }

    /**
     * One tile: {@code dw[r][0, NR) (+)= sum over the block's pixels of x[window + r] dy[pixel]} for the six taps
     * {@code r}, pixel {@code (oh, ow)}'s window at {@code xa + oh rowStep + ow pixelStep}, its dy at
     * {@code ya + (oh outW + ow) NR}; rows of dw {@code NR} apart.
     */
    private static void tile(float[] x, int xa, int rowStep, int pixelStep, int outW, int rows, float[] dy, int ya,
                             float[] dw, int di, boolean first) {
        FloatVector c00;
        FloatVector c01;
        FloatVector c10;
        FloatVector c11;
        FloatVector c20;
        FloatVector c21;
        FloatVector c30;
        FloatVector c31;
        FloatVector c40;
        FloatVector c41;
        FloatVector c50;
        FloatVector c51;
        if (first) {
            c00 = FloatVector.zero(S);
            c01 = c00;
            c10 = c00;
            c11 = c00;
            c20 = c00;
            c21 = c00;
            c30 = c00;
            c31 = c00;
            c40 = c00;
            c41 = c00;
            c50 = c00;
            c51 = c00;
        } else {
            c00 = FloatVector.fromArray(S, dw, di);
            c01 = FloatVector.fromArray(S, dw, di + L);
            c10 = FloatVector.fromArray(S, dw, di + NR);
            c11 = FloatVector.fromArray(S, dw, di + NR + L);
            c20 = FloatVector.fromArray(S, dw, di + 2 * NR);
            c21 = FloatVector.fromArray(S, dw, di + 2 * NR + L);
            c30 = FloatVector.fromArray(S, dw, di + 3 * NR);
            c31 = FloatVector.fromArray(S, dw, di + 3 * NR + L);
            c40 = FloatVector.fromArray(S, dw, di + 4 * NR);
            c41 = FloatVector.fromArray(S, dw, di + 4 * NR + L);
            c50 = FloatVector.fromArray(S, dw, di + 5 * NR);
            c51 = FloatVector.fromArray(S, dw, di + 5 * NR + L);
        }
        for (int oh = 0; oh < rows; oh++) {
            int a = xa + oh * rowStep;
            int b = ya + oh * outW * NR;
            for (int ow = 0; ow < outW; ow++) {
                int ai = a + ow * pixelStep;
                int bi = b + ow * NR;
                FloatVector b0 = FloatVector.fromArray(S, dy, bi);
                FloatVector b1 = FloatVector.fromArray(S, dy, bi + L);
                FloatVector v = FloatVector.broadcast(S, x[ai]);
                c00 = v.fma(b0, c00);
                c01 = v.fma(b1, c01);
                v = FloatVector.broadcast(S, x[ai + 1]);
                c10 = v.fma(b0, c10);
                c11 = v.fma(b1, c11);
                v = FloatVector.broadcast(S, x[ai + 2]);
                c20 = v.fma(b0, c20);
                c21 = v.fma(b1, c21);
                v = FloatVector.broadcast(S, x[ai + 3]);
                c30 = v.fma(b0, c30);
                c31 = v.fma(b1, c31);
                v = FloatVector.broadcast(S, x[ai + 4]);
                c40 = v.fma(b0, c40);
                c41 = v.fma(b1, c41);
                v = FloatVector.broadcast(S, x[ai + 5]);
                c50 = v.fma(b0, c50);
                c51 = v.fma(b1, c51);
            }
        }
        // Stored here rather than by a helper, as in VectorGemm's kernels: C2 boxes vectors passed to a call.
        c00.intoArray(dw, di);
        c01.intoArray(dw, di + L);
        c10.intoArray(dw, di + NR);
        c11.intoArray(dw, di + NR + L);
        c20.intoArray(dw, di + 2 * NR);
        c21.intoArray(dw, di + 2 * NR + L);
        c30.intoArray(dw, di + 3 * NR);
        c31.intoArray(dw, di + 3 * NR + L);
        c40.intoArray(dw, di + 4 * NR);
        c41.intoArray(dw, di + 4 * NR + L);
        c50.intoArray(dw, di + 5 * NR);
        c51.intoArray(dw, di + 5 * NR + L);
    }
}
