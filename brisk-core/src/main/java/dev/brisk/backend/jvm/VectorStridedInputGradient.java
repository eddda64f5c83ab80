package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The input gradient of a convolution three wide at stride 2 whose input has whole vectors of channels (the
 * downsampling layers of ResNets), straight from dy. Through the columns each dy pixel's {@code kh kw cin} column row
 * was written by gemm (depth {@code cout} only) and scattered back by col2im, after dx was cleared: about half the
 * speed of the other 3x3 passes at 16 input channels. Here each dx pixel is computed once, as the sum over the taps
 * whose windows hold it: along a row, an even pixel (with the left padding) is read by taps 0 and 2 of two
 * neighbouring outputs, an odd one by tap 1, so {@link #PIXELS} neighbouring dx pixels take nine dy values per output
 * channel and kernel row, each broadcast once and multiplied by the one to three weight vectors of the taps that read
 * it (24 FMAs for 12 loads); along the columns each dx row takes the kernel rows whose outputs exist.
 *
 * <p>Each dx element is one chain from zero over the kernel rows, then the output channels, then the taps (tap 2
 * before tap 0 for even pixels), the same whichever block computes it: other bits than the column path's, the same at
 * any split of the images across threads (each image on one thread, each dx element written by its own chain).
 */
final class VectorStridedInputGradient {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** dx pixels of a row computed together with one vector of channels: sixteen accumulators. */
    static final int PIXELS = 16;
    /** dx pixels of a row computed together with two vectors of channels: sixteen accumulators. */
    static final int PIXELS_WIDE = 8;

    private VectorStridedInputGradient() {
    }

    /**
     * Whether this kernel computes the input gradient of {@code g}: stride 2 both ways, a kernel three wide, an even
     * left padding (so that even dx columns are the ones two taps read), input channels one vector or whole pairs of
     * vectors, and input rows longer than a block.
     */
    static boolean applies(ConvGeometry g) {
        int c = g.channels();
        boolean one = c == L;
        boolean pairs = c % (2 * L) == 0;
        return g.strideH() == 2 && g.strideW() == 2 && g.kernelW() == 3 && g.padTop() >= 0 && g.padLeft() >= 0
                && g.padLeft() % 2 == 0 && (one || pairs) && g.width() > (one ? PIXELS : PIXELS_WIDE);
    }

    /** {@code dx = conv2d_backward_input(dy, w)}, dx overwritten. For {@link #applies}. */
    static void backwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff) {
        float[] filter = pack(g, w, wOff);
        long macs = (long) g.batch() * g.outH() * g.outW() * Im2Col.rowLength(g) * g.outChannels();
        ConvArgs.inputGradient(g, macs, dy, dyOff, filter, dx, dxOff, VectorStridedInputGradient::images);
    }

    /**
     * The filter with its channel axes swapped: kernel row i, output channel co and tap j hold the {@code cin}
     * weights {@code w[i][j][.][co]} at {@code ((i cout + co) 3 + j) cin}. Handed to the threads of the call that
     * fills it, which only read it.
     */
    private static float[] pack(ConvGeometry g, float[] w, int wOff) {
        int kh = g.kernelH();
        int c = g.channels();
        int oc = g.outChannels();
        float[] filter = Scratch.get().packedFilter(kh * oc * 3 * c);
        for (int i = 0, p = 0; i < kh; i++) {
            for (int co = 0; co < oc; co++) {
                for (int j = 0; j < 3; j++, p += c) {
                    int src = wOff + (i * 3 + j) * c * oc + co;
                    for (int ch = 0; ch < c; ch++) {
                        filter[p + ch] = w[src + ch * oc];
                    }
                }
            }
        }
        return filter;
    }

    /** dx of images {@code [n0, n1)}, on the calling thread. */
    private static void images(ConvGeometry g, float[] dy, int dyOff, float[] filter, float[] dx, int dxOff, int n0,
                               int n1) {
        int c = g.channels();
        int oc = g.outChannels();
        int width = g.width();
        int kh = g.kernelH();
        // dy with a column of zeros on each side: the outputs left of the first and right of the last.
        int paddedW = g.outW() + 2;
        int rowStride = paddedW * oc;
        Scratch scratch = Scratch.get();
        float[] d = scratch.padded(g.outH() * rowStride);
        int[] rows = scratch.taps(2 * kh);
        boolean one = c == L;
        int block = one ? PIXELS : PIXELS_WIDE;
        for (int n = n0; n < n1; n++) {
            copy(g, dy, dyOff, n, d, paddedW);
            for (int h = 0; h < g.height(); h++) {
                // The kernel rows whose outputs exist for this dx row, in order, and those outputs' dy rows.
                int count = 0;
                for (int i = 0; i < kh; i++) {
                    int t = h + g.padTop() - i;
                    if (t >= 0 && t % 2 == 0 && t / 2 < g.outH()) {
                        rows[count] = t / 2 * rowStride;
                        rows[kh + count] = i;
                        count++;
                    }
                }
                int dxRow = dxOff + (n * g.height() + h) * width * c;
                if (count == 0) {
                    Arrays.fill(dx, dxRow, dxRow + width * c, 0f);
                    continue;
                }
                for (int o = 0; o < width; o += block) {
                    // The last block ends at the row's end (recomputing a few pixels, the same bits), or one pixel
                    // earlier where that start is odd; the row's last pixel is then computed alone.
                    int start = Math.min(o, width - block);
                    if ((start + g.padLeft()) % 2 != 0) {
                        start--;
                        int last = width - 1;
                        for (int f0 = 0; f0 < c; f0 += L) {
                            evenPixel(d, rows, kh, count, (last + g.padLeft()) / 2 * oc, oc, filter, c, f0, dx,
                                    dxRow + last * c + f0);
                        }
                    }
                    // Padded column of output m0 - 1, where m0 = (start + padLeft) / 2.
                    int col = (start + g.padLeft()) / 2 * oc;
                    if (one) {
                        pixels16(d, rows, kh, count, col, oc, filter, c, dx, dxRow + start * c, c);
                    } else {
                        for (int f0 = 0; f0 < c; f0 += 2 * L) {
                            pixels8x2(d, rows, kh, count, col, oc, filter, c, f0, dx, dxRow + start * c + f0, c);
                        }
                    }
                }
            }
        }
    }

    /**
     * dy's image {@code n} into {@code d}, each row with a column of zeros before and after it ({@code paddedW}
     * pixels).
     */
    private static void copy(ConvGeometry g, float[] dy, int dyOff, int n, float[] d, int paddedW) {
        int oc = g.outChannels();
        int rowFloats = g.outW() * oc;
        for (int oh = 0; oh < g.outH(); oh++) {
            int dst = oh * paddedW * oc;
            Arrays.fill(d, dst, dst + oc, 0f);
            System.arraycopy(dy, dyOff + (n * g.outH() + oh) * rowFloats, d, dst + oc, rowFloats);
            Arrays.fill(d, dst + oc + rowFloats, dst + 2 * oc + rowFloats, 0f);
        }
    }

    /**
     * One even dx pixel (its column plus the left padding even), one vector of channels from the filter's column
     * {@code fo}: the chain of {@link #pixels16}'s even pixels, tap 2 of the output before it, then tap 0 of the
     * output at {@code col} (padded dy offsets, as there).
     */
    private static void evenPixel(float[] d, int[] rows, int kh, int count, int col, int oc, float[] f, int fc, int fo,
                                  float[] dx, int dxi) {
        FloatVector a = FloatVector.zero(S);
        for (int r = 0; r < count; r++) {
            int s = rows[r] + col;
            int wi = rows[kh + r] * oc * 3 * fc + fo;
            for (int co = 0; co < oc; co++, s++, wi += 3 * fc) {
                a = FloatVector.broadcast(S, d[s]).fma(FloatVector.fromArray(S, f, wi + 2 * fc), a);
                a = FloatVector.broadcast(S, d[s + oc]).fma(FloatVector.fromArray(S, f, wi), a);
            }
        }
        a.intoArray(dx, dxi);
    }

    /**
     * {@link #PIXELS} dx pixels of a row from {@code dxi}, one vector of channels: for each dy row the dx row takes
     * ({@code rows[r]}, its offset in the padded dy, for kernel row {@code rows[kh + r]}) and each output channel co,
     * the nine dy values of columns {@code m0 - 1 .. m0 + 7} are broadcast once each and multiplied by the weights of
     * the taps that read them: an even pixel {@code 2m} takes tap 2 of column {@code m0 + m - 1} and tap 0 of column
     * {@code m0 + m}, an odd pixel {@code 2m + 1} tap 1 of column {@code m0 + m}.
     */
    private static void pixels16(float[] d, int[] rows, int kh, int count, int col, int oc, float[] f, int fc,
                                 float[] dx, int dxi, int c) {
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
        for (int r = 0; r < count; r++) {
            int s = rows[r] + col;
            int wi = rows[kh + r] * oc * 3 * fc;
            for (int co = 0; co < oc; co++, s++, wi += 3 * fc) {
                FloatVector w0 = FloatVector.fromArray(S, f, wi);
                FloatVector w1 = FloatVector.fromArray(S, f, wi + fc);
                FloatVector w2 = FloatVector.fromArray(S, f, wi + 2 * fc);
                FloatVector v = FloatVector.broadcast(S, d[s]);
                a0 = v.fma(w2, a0);
                v = FloatVector.broadcast(S, d[s + oc]);
                a0 = v.fma(w0, a0);
                a1 = v.fma(w1, a1);
                a2 = v.fma(w2, a2);
                v = FloatVector.broadcast(S, d[s + 2 * oc]);
                a2 = v.fma(w0, a2);
                a3 = v.fma(w1, a3);
                a4 = v.fma(w2, a4);
                v = FloatVector.broadcast(S, d[s + 3 * oc]);
                a4 = v.fma(w0, a4);
                a5 = v.fma(w1, a5);
                a6 = v.fma(w2, a6);
                v = FloatVector.broadcast(S, d[s + 4 * oc]);
                a6 = v.fma(w0, a6);
                a7 = v.fma(w1, a7);
                a8 = v.fma(w2, a8);
                v = FloatVector.broadcast(S, d[s + 5 * oc]);
                a8 = v.fma(w0, a8);
                a9 = v.fma(w1, a9);
                a10 = v.fma(w2, a10);
                v = FloatVector.broadcast(S, d[s + 6 * oc]);
                a10 = v.fma(w0, a10);
                a11 = v.fma(w1, a11);
                a12 = v.fma(w2, a12);
                v = FloatVector.broadcast(S, d[s + 7 * oc]);
                a12 = v.fma(w0, a12);
                a13 = v.fma(w1, a13);
                a14 = v.fma(w2, a14);
                v = FloatVector.broadcast(S, d[s + 8 * oc]);
                a14 = v.fma(w0, a14);
                a15 = v.fma(w1, a15);
            }
        }
        a0.intoArray(dx, dxi);
        a1.intoArray(dx, dxi + c);
        a2.intoArray(dx, dxi + 2 * c);
        a3.intoArray(dx, dxi + 3 * c);
        a4.intoArray(dx, dxi + 4 * c);
        a5.intoArray(dx, dxi + 5 * c);
        a6.intoArray(dx, dxi + 6 * c);
        a7.intoArray(dx, dxi + 7 * c);
        a8.intoArray(dx, dxi + 8 * c);
        a9.intoArray(dx, dxi + 9 * c);
        a10.intoArray(dx, dxi + 10 * c);
        a11.intoArray(dx, dxi + 11 * c);
        a12.intoArray(dx, dxi + 12 * c);
        a13.intoArray(dx, dxi + 13 * c);
        a14.intoArray(dx, dxi + 14 * c);
        a15.intoArray(dx, dxi + 15 * c);
    }

    /**
     * {@link #PIXELS_WIDE} dx pixels of a row from {@code dxi}, two vectors of channels from the filter's column
     * {@code fo}: {@link #pixels16}'s pattern over five dy columns.
     */
    private static void pixels8x2(float[] d, int[] rows, int kh, int count, int col, int oc, float[] f, int fc,
                                  int fo, float[] dx, int dxi, int c) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        FloatVector a4 = a0;
        FloatVector a5 = a0;
        FloatVector a6 = a0;
        FloatVector a7 = a0;
        FloatVector b0 = a0;
        FloatVector b1 = a0;
        FloatVector b2 = a0;
        FloatVector b3 = a0;
        FloatVector b4 = a0;
        FloatVector b5 = a0;
        FloatVector b6 = a0;
        FloatVector b7 = a0;
        for (int r = 0; r < count; r++) {
            int s = rows[r] + col;
            int wi = rows[kh + r] * oc * 3 * fc + fo;
            for (int co = 0; co < oc; co++, s++, wi += 3 * fc) {
                FloatVector w0 = FloatVector.fromArray(S, f, wi);
                FloatVector u0 = FloatVector.fromArray(S, f, wi + L);
                FloatVector w1 = FloatVector.fromArray(S, f, wi + fc);
                FloatVector u1 = FloatVector.fromArray(S, f, wi + fc + L);
                FloatVector w2 = FloatVector.fromArray(S, f, wi + 2 * fc);
                FloatVector u2 = FloatVector.fromArray(S, f, wi + 2 * fc + L);
                FloatVector v = FloatVector.broadcast(S, d[s]);
                a0 = v.fma(w2, a0);
                b0 = v.fma(u2, b0);
                v = FloatVector.broadcast(S, d[s + oc]);
                a0 = v.fma(w0, a0);
                b0 = v.fma(u0, b0);
                a1 = v.fma(w1, a1);
                b1 = v.fma(u1, b1);
                a2 = v.fma(w2, a2);
                b2 = v.fma(u2, b2);
                v = FloatVector.broadcast(S, d[s + 2 * oc]);
                a2 = v.fma(w0, a2);
                b2 = v.fma(u0, b2);
                a3 = v.fma(w1, a3);
                b3 = v.fma(u1, b3);
                a4 = v.fma(w2, a4);
                b4 = v.fma(u2, b4);
                v = FloatVector.broadcast(S, d[s + 3 * oc]);
                a4 = v.fma(w0, a4);
                b4 = v.fma(u0, b4);
                a5 = v.fma(w1, a5);
                b5 = v.fma(u1, b5);
                a6 = v.fma(w2, a6);
                b6 = v.fma(u2, b6);
                v = FloatVector.broadcast(S, d[s + 4 * oc]);
                a6 = v.fma(w0, a6);
                b6 = v.fma(u0, b6);
                a7 = v.fma(w1, a7);
                b7 = v.fma(u1, b7);
            }
        }
        a0.intoArray(dx, dxi);
        b0.intoArray(dx, dxi + L);
        a1.intoArray(dx, dxi + c);
        b1.intoArray(dx, dxi + c + L);
        a2.intoArray(dx, dxi + 2 * c);
        b2.intoArray(dx, dxi + 2 * c + L);
        a3.intoArray(dx, dxi + 3 * c);
        b3.intoArray(dx, dxi + 3 * c + L);
        a4.intoArray(dx, dxi + 4 * c);
        b4.intoArray(dx, dxi + 4 * c + L);
        a5.intoArray(dx, dxi + 5 * c);
        b5.intoArray(dx, dxi + 5 * c + L);
        a6.intoArray(dx, dxi + 6 * c);
        b6.intoArray(dx, dxi + 6 * c + L);
        a7.intoArray(dx, dxi + 7 * c);
        b7.intoArray(dx, dxi + 7 * c + L);
    }
}
