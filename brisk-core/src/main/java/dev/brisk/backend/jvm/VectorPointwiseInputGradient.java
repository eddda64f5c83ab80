package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The input gradient of a 1x1 convolution at a stride above one without padding (a ResNet's projection shortcut)
 * whose input has one or two vectors of channels, straight from dy. Through the columns dx was cleared, gemm wrote a
 * column row per dy pixel (a product {@code cin} wide and {@code cout} deep) and col2im added each into dx: three
 * passes over memory for a product of a few multiply-adds per float. Here each dx pixel that a window reads is
 * {@code dy[pixel] W^T}, computed for {@link #PIXELS} dy pixels at a time (each dy value broadcast once, the filter's
 * transposed rows loaded once per block), and every other pixel is written zero, so dx is written once.
 *
 * <p>Each dx element is one chain from zero over the output channels in order: its own bits (not the columns'),
 * the same at any split of the images across threads.
 */
final class VectorPointwiseInputGradient {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** dy pixels computed together: four chains per vector of channels, eight at two vectors. */
    static final int PIXELS = 4;

    private VectorPointwiseInputGradient() {
    }

    /**
     * Whether this kernel computes the input gradient of {@code g}: a 1x1 kernel, a stride above one (either way),
     * no padding, and one or two vectors of input channels.
     */
    static boolean applies(ConvGeometry g) {
        int c = g.channels();
        return g.kernelH() == 1 && g.kernelW() == 1 && (g.strideH() > 1 || g.strideW() > 1) && g.padTop() == 0
                && g.padLeft() == 0 && (c == L || c == 2 * L);
    }

    /** {@code dx = conv2d_backward_input(dy, w)}, dx overwritten. For {@link #applies}. */
    static void backwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff) {
        float[] transposed = transpose(g, w, wOff);
        long macs = (long) g.batch() * g.outH() * g.outW() * g.channels() * g.outChannels();
        ConvArgs.inputGradient(g, macs, dy, dyOff, transposed, dx, dxOff, VectorPointwiseInputGradient::images);
    }

    /**
     * The filter {@code [cin][cout]} transposed: output channel co's {@code cin} weights at {@code co cin}. Handed to
     * the threads of the call that fills it, which only read it.
     */
    private static float[] transpose(ConvGeometry g, float[] w, int wOff) {
        int c = g.channels();
        int oc = g.outChannels();
        float[] t = Scratch.get().packedFilter(oc * c);
        for (int co = 0; co < oc; co++) {
            for (int ch = 0; ch < c; ch++) {
                t[co * c + ch] = w[wOff + ch * oc + co];
            }
        }
        return t;
    }

    /** dx of images {@code [n0, n1)}, on the calling thread. */
    private static void images(ConvGeometry g, float[] dy, int dyOff, float[] t, float[] dx, int dxOff, int n0,
                               int n1) {
        int c = g.channels();
        int oc = g.outChannels();
        int width = g.width();
        int sh = g.strideH();
        int sw = g.strideW();
        int rowFloats = width * c;
        for (int n = n0; n < n1; n++) {
            for (int h = 0; h < g.height(); h++) {
                int dxRow = dxOff + (n * g.height() + h) * rowFloats;
                int i = h / sh;
                if (h % sh != 0 || i >= g.outH()) {
                    Arrays.fill(dx, dxRow, dxRow + rowFloats, 0f);
                    continue;
                }
                // The pixels no window reads first, then the others, each written once.
                for (int x = 0; x < width; x++) {
                    if (x % sw != 0 || x / sw >= g.outW()) {
                        Arrays.fill(dx, dxRow + x * c, dxRow + (x + 1) * c, 0f);
                    }
                }
                int dyRow = dyOff + (n * g.outH() + i) * g.outW() * oc;
                int pixel = sw * c;
                int j = 0;
                for (; j + PIXELS <= g.outW(); j += PIXELS) {
                    if (c == L) {
                        four(dy, dyRow + j * oc, oc, t, dx, dxRow + j * pixel, pixel);
                    } else {
                        fourWide(dy, dyRow + j * oc, oc, t, dx, dxRow + j * pixel, pixel);
                    }
                }
                for (; j < g.outW(); j++) {
                    one(dy, dyRow + j * oc, oc, t, c, dx, dxRow + j * pixel);
                }
            }
        }
    }

    /** Four dy pixels ({@code oc} apart from {@code d}) times the transposed filter, one vector of channels. */
    private static void four(float[] dy, int d, int oc, float[] t, float[] dx, int o, int pixel) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        for (int co = 0; co < oc; co++) {
            FloatVector w = FloatVector.fromArray(S, t, co * L);
            a0 = FloatVector.broadcast(S, dy[d + co]).fma(w, a0);
            a1 = FloatVector.broadcast(S, dy[d + oc + co]).fma(w, a1);
            a2 = FloatVector.broadcast(S, dy[d + 2 * oc + co]).fma(w, a2);
            a3 = FloatVector.broadcast(S, dy[d + 3 * oc + co]).fma(w, a3);
        }
        a0.intoArray(dx, o);
        a1.intoArray(dx, o + pixel);
        a2.intoArray(dx, o + 2 * pixel);
        a3.intoArray(dx, o + 3 * pixel);
    }

    /** {@link #four} with two vectors of channels: eight chains. */
    private static void fourWide(float[] dy, int d, int oc, float[] t, float[] dx, int o, int pixel) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        FloatVector b0 = a0;
        FloatVector b1 = a0;
        FloatVector b2 = a0;
        FloatVector b3 = a0;
        for (int co = 0; co < oc; co++) {
            FloatVector w = FloatVector.fromArray(S, t, 2 * co * L);
            FloatVector v = FloatVector.fromArray(S, t, (2 * co + 1) * L);
            FloatVector e0 = FloatVector.broadcast(S, dy[d + co]);
            FloatVector e1 = FloatVector.broadcast(S, dy[d + oc + co]);
            FloatVector e2 = FloatVector.broadcast(S, dy[d + 2 * oc + co]);
            FloatVector e3 = FloatVector.broadcast(S, dy[d + 3 * oc + co]);
            a0 = e0.fma(w, a0);
            b0 = e0.fma(v, b0);
            a1 = e1.fma(w, a1);
            b1 = e1.fma(v, b1);
            a2 = e2.fma(w, a2);
            b2 = e2.fma(v, b2);
            a3 = e3.fma(w, a3);
            b3 = e3.fma(v, b3);
        }
        a0.intoArray(dx, o);
        b0.intoArray(dx, o + L);
        a1.intoArray(dx, o + pixel);
        b1.intoArray(dx, o + pixel + L);
        a2.intoArray(dx, o + 2 * pixel);
        b2.intoArray(dx, o + 2 * pixel + L);
        a3.intoArray(dx, o + 3 * pixel);
        b3.intoArray(dx, o + 3 * pixel + L);
    }

    /** One dy pixel times the transposed filter, a vector of channels at a time, each the same chain as above. */
    private static void one(float[] dy, int d, int oc, float[] t, int c, float[] dx, int o) {
        for (int v = 0; v < c; v += L) {
            FloatVector a = FloatVector.zero(S);
            for (int co = 0; co < oc; co++) {
                a = FloatVector.broadcast(S, dy[d + co]).fma(FloatVector.fromArray(S, t, co * c + v), a);
            }
            a.intoArray(dx, o + v);
        }
    }
}
