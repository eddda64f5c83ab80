package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;

/**
 * The input gradient of a convolution whose input has one vector of channels, at stride 1
 * ({@link VectorNarrowConv#inputGradientApplies}): the forward convolution of dy, padded by {@code k - 1 - pad}, with
 * the kernel turned 180 degrees and its channel axes swapped, run by {@link VectorNarrowConv}'s forward kernels (one
 * chain per input element over {@code (i, j, co)}). This class only lays out that flipped filter.
 */
final class VectorNarrowInputGradient {
    private static final int L = FloatVector.SPECIES_PREFERRED.length();

    private VectorNarrowInputGradient() {
    }

    /** {@code dx = conv2d_backward_input(dy, w)}, dx overwritten. For {@link VectorNarrowConv#inputGradientApplies}. */
    static void backwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff) {
        int kh = g.kernelH();
        int kw = g.kernelW();
        int c = g.channels();
        int oc = g.outChannels();
        // dx[h][w][c] = sum over (i, j, co) of dy[h + padTop - i][w + padLeft - j][co] w[i][j][c][co]: with
        // i' = kh - 1 - i, a convolution of dy padded by kh - 1 - padTop with the kernel w'[i'][j'][co][c].
        ConvGeometry t = transposed(g);
        int k = kh * kw * oc;
        float[] filter = Scratch.get().narrowFilter((k + 1) * L);
        for (int i = 0, p = 0; i < kh; i++) {
            for (int j = 0; j < kw; j++) {
                int src = wOff + (((kh - 1 - i) * kw + kw - 1 - j) * c) * oc;
                for (int co = 0; co < oc; co++, p++) {
                    for (int ch = 0; ch < c; ch++) {
                        filter[p * L + ch] = w[src + ch * oc + co];
                    }
                    Arrays.fill(filter, p * L + c, (p + 1) * L, 0f);
                }
            }
        }
        Arrays.fill(filter, k * L, (k + 1) * L, 0f);
        VectorNarrowConv.run(t, dy, dyOff, filter, false, false, dx, dxOff);
    }

    /**
     * The stride-1 convolution whose forward pass is {@code g}'s input gradient: over dy ({@code g}'s output), padded
     * by {@code k - 1 - pad}, into {@code g}'s input, with {@code g}'s channel counts swapped. Cached per thread.
     */
    static ConvGeometry transposed(ConvGeometry g) {
        Scratch scratch = Scratch.get();
        ConvGeometry t = scratch.transposed(g);
        if (t == null) {
            t = new ConvGeometry(g.batch(), g.outH(), g.outW(), g.outChannels(), g.kernelH(), g.kernelW(),
                    g.channels(), 1, 1, g.kernelH() - 1 - g.padTop(), g.kernelW() - 1 - g.padLeft(), g.height(),
                    g.width());
            scratch.transposed(g, t);
        }
        return t;
    }
}
