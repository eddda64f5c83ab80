package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The column matrix of a convolution: row {@code (n, oh, ow)} holds the {@code kh x kw x c} input cells that
 * output pixel reads, in the kernel's {@code (i, j, c)} order and with zeros where the window hangs over the
 * padding, so that {@code conv2d = columns x kernel} with the kernel viewed as a {@code (kh kw c) x oc} matrix.
 */
final class Im2Col {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    /** Runs shorter than this are copied by a plain loop, which beats arraycopy's call for a few floats. */
    private static final int SHORT_RUN = 32;

    private Im2Col() {
    }

    /** The length of a column-matrix row. */
    static int rowLength(ConvGeometry g) {
        return g.kernelH() * g.kernelW() * g.channels();
    }

    /** Writes rows {@code [r0, r1)} of the column matrix to {@code cols} from {@code colsOff}. */
    static void im2col(ConvGeometry g, float[] x, int xOff, int r0, int r1, float[] cols, int colsOff) {
        int c = g.channels();
        int runMax = g.kernelW() * c;
        int dst = colsOff;
        for (int r = r0; r < r1; r++) {
            int ow = r % g.outW();
            int oh = r / g.outW() % g.outH();
            int n = r / (g.outW() * g.outH());
            int iw0 = ow * g.strideW() - g.padLeft();
            int jLo = Math.max(0, -iw0);
            int jHi = Math.min(g.kernelW(), g.width() - iw0);
            for (int i = 0; i < g.kernelH(); i++, dst += runMax) {
                int ih = oh * g.strideH() - g.padTop() + i;
                if (ih < 0 || ih >= g.height() || jLo >= jHi) {
                    zero(cols, dst, runMax);
                    continue;
                }
                zero(cols, dst, jLo * c);
                // The cells of one kernel row are adjacent in NHWC (there is no dilation): one run.
                int src = xOff + ((n * g.height() + ih) * g.width() + iw0 + jLo) * c;
                copy(x, src, cols, dst + jLo * c, (jHi - jLo) * c);
                zero(cols, dst + jHi * c, (g.kernelW() - jHi) * c);
            }
        }
    }

    /**
     * Writes the transpose of rows {@code [r0, r1)} of the column matrix: entry {@code (r, p)} goes to
     * {@code cols[colsOff + p * ld + (r - r0)]}. Each line is built from runs along image rows, which is the
     * cheap order when the image has few channels (the row-major order copies runs of only {@code kw c}).
     */
    static void im2colTransposed(ConvGeometry g, float[] x, int xOff, int r0, int r1, float[] cols, int colsOff,
                                 int ld) {
        int c = g.channels();
        int step = g.strideW() * c;
        for (int p = 0; p < rowLength(g); p++) {
            int i = p / (g.kernelW() * c);
            int j = p / c % g.kernelW();
            int ch = p % c;
            int dst = colsOff + p * ld;
            for (int r = r0; r < r1; ) {
                int ow = r % g.outW();
                int oh = r / g.outW() % g.outH();
                int n = r / (g.outW() * g.outH());
                int len = Math.min(r1 - r, g.outW() - ow);
                int ih = oh * g.strideH() - g.padTop() + i;
                if (ih < 0 || ih >= g.height()) {
                    zero(cols, dst, len);
                } else {
                    // Output columns t in [tLo, tHi) of this segment read inside the image.
                    int iw0 = ow * g.strideW() - g.padLeft() + j;
                    int tLo = Math.min(len, iw0 >= 0 ? 0 : ceilDiv(-iw0, g.strideW()));
                    int tHi = Math.max(tLo, Math.min(len, ceilDiv(g.width() - iw0, g.strideW())));
                    zero(cols, dst, tLo);
                    int src = xOff + ((n * g.height() + ih) * g.width() + iw0 + tLo * g.strideW()) * c + ch;
                    if (step == 1) {
                        copy(x, src, cols, dst + tLo, tHi - tLo);
                    } else {
                        for (int t = tLo; t < tHi; t++, src += step) {
                            cols[dst + t] = x[src];
                        }
                    }
                    zero(cols, dst + tHi, len - tHi);
                }
                dst += len;
                r += len;
            }
        }
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** Adds rows {@code [r0, r1)} of a column-matrix gradient into {@code dx} (the inverse scatter of im2col). */
    static void col2im(ConvGeometry g, float[] cols, int colsOff, int r0, int r1, float[] dx, int dxOff) {
        int c = g.channels();
        int runMax = g.kernelW() * c;
        int src = colsOff;
        for (int r = r0; r < r1; r++) {
            int ow = r % g.outW();
            int oh = r / g.outW() % g.outH();
            int n = r / (g.outW() * g.outH());
            int iw0 = ow * g.strideW() - g.padLeft();
            int jLo = Math.max(0, -iw0);
            int jHi = Math.min(g.kernelW(), g.width() - iw0);
            for (int i = 0; i < g.kernelH(); i++, src += runMax) {
                int ih = oh * g.strideH() - g.padTop() + i;
                if (ih < 0 || ih >= g.height() || jLo >= jHi) {
                    continue;
                }
                int dst = dxOff + ((n * g.height() + ih) * g.width() + iw0 + jLo) * c;
                addRun(cols, src + jLo * c, dx, dst, (jHi - jLo) * c);
            }
        }
    }

    /**
     * {@code dx[dst ..] += cols[from ..]} for {@code len} floats, whole vectors first. The scalar loop was not
     * vectorised by C2 (it cannot tell the two arrays apart): W2's second convolution spent 2.4-3 ms of its 10 ms
     * input gradient here. Each float gets the same single add either way.
     */
    private static void addRun(float[] cols, int from, float[] dx, int dst, int len) {
        int t = 0;
        for (int upper = S.loopBound(len); t < upper; t += S.length()) {
            FloatVector.fromArray(S, dx, dst + t).add(FloatVector.fromArray(S, cols, from + t)).intoArray(dx, dst + t);
        }
        for (; t < len; t++) {
            dx[dst + t] += cols[from + t];
        }
    }

    private static void zero(float[] a, int from, int len) {
        for (int t = 0; t < len; t++) {
            a[from + t] = 0f;
        }
    }

    private static void copy(float[] src, int from, float[] dst, int to, int len) {
        if (len >= SHORT_RUN) {
            System.arraycopy(src, from, dst, to, len);
        } else {
            for (int t = 0; t < len; t++) {
                dst[to + t] = src[from + t];
            }
        }
    }
}
