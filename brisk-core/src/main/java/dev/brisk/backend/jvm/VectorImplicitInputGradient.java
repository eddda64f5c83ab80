package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;

/**
 * The input gradient of a stride-1 convolution whose input has one gemm panel of channels ({@link VectorGemm#NR},
 * 32 on 512-bit vectors) as the forward convolution of dy through {@link VectorImplicitConv}: dy padded by
 * {@code k - 1 - pad}, the kernel turned 180 degrees with its channel axes swapped. The column path wrote a
 * {@code kh kw cin} column row per output pixel and scattered it back with col2im; this one reads dy's windows in
 * place and writes each input element once. Each element is one chain over {@code (i, j, co)} from zero per depth
 * block, blocks added in order: other bits than col2im's sum of per-tap products, the same at any thread count.
 */
final class VectorImplicitInputGradient {
    private VectorImplicitInputGradient() {
    }

    /**
     * Whether this path computes the input gradient: not a 1x1 kernel (those need no columns), stride 1, padding
     * that leaves every window a row and a column of the image, an output at least as large as the input, and a
     * transposed convolution that {@link VectorImplicitConv#applies}: {@code g}'s input one panel of channels,
     * kernel rows of {@code kw oc} at least two vectors. The transposed convolution multiplies every tap of each
     * input pixel's window, the zeros of dy's padding included: with valid padding that is {@code H W / (outH outW)}
     * times the column path's work (13x13 to 11x11: 1.4x, measured 0.78x as fast), so it stays with the columns.
     */
    static boolean applies(ConvGeometry g) {
        boolean pointwise = g.kernelH() == 1 && g.kernelW() == 1;
        return !pointwise && g.strideH() == 1 && g.strideW() == 1 && g.padTop() < g.kernelH()
                && g.padLeft() < g.kernelW() && g.channels() == VectorGemm.NR
                && (long) g.height() * g.width() <= (long) g.outH() * g.outW()
                && VectorImplicitConv.applies(VectorNarrowInputGradient.transposed(g), null);
    }

    /** {@code dx = conv2d_backward_input(dy, w)}, dx overwritten. For {@link #applies}. */
    static void backwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff) {
        int kh = g.kernelH();
        int kw = g.kernelW();
        int c = g.channels();
        int oc = g.outChannels();
        // Row (i', j', co) of the flipped kernel is w[kh - 1 - i'][kw - 1 - j'][.][co], one panel of c floats: the
        // implicit convolution reads a one-panel kernel in place.
        float[] filter = Scratch.get().packedFilter(kh * kw * oc * c);
        for (int i = 0, p = 0; i < kh; i++) {
            for (int j = 0; j < kw; j++) {
                int src = wOff + ((kh - 1 - i) * kw + kw - 1 - j) * c * oc;
                for (int co = 0; co < oc; co++, p++) {
                    for (int ch = 0; ch < c; ch++) {
                        filter[p * c + ch] = w[src + ch * oc + co];
                    }
                }
            }
        }
        VectorImplicitConv.conv2d(VectorNarrowInputGradient.transposed(g), dy, dyOff, filter, 0, null, 0, false,
                dx, dxOff);
    }
}
