package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.uniform;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.UnaryFn;
import java.util.Random;

/**
 * The inputs of one forward-convolution check of a vector kernel against im2col + gemm and the scalar reference:
 * the image at offset 3 of {@code x}, the filter at offset 5 of {@code w}, the bias at offset 2 (or none), and the
 * activation; outputs go from offset 1. Zeros of both signs are planted in the image and the filter, since a padded
 * tap adds 0 x w to a chain, which turns a -0 sum into +0: a kernel that skips or reorders taps shows up as a
 * changed bit.
 *
 * @param g the geometry
 * @param x the image, from offset 3
 * @param w the filter, from offset 5
 * @param bias the bias, from offset 2, or null
 * @param fn relu, or null for none
 */
record ConvProblem(ConvGeometry g, float[] x, float[] w, float[] bias, UnaryFn fn) {
    private static final Kernels SCALAR = new ScalarKernels();

    /** A problem of geometry {@code g} with values uniform in [-1, 1]. */
    static ConvProblem of(Random random, ConvGeometry g, boolean withBias, boolean relu) {
        float[] x = uniform(random, 3 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
        for (int i = 0; i < x.length; i += 5) {
            x[i] = i % 2 == 0 ? 0f : -0f;
        }
        float[] w = uniform(random, 5 + g.kernelH() * g.kernelW() * g.channels() * g.outChannels(), -1, 1);
        w[5] = -0f;
        float[] bias = withBias ? uniform(random, 2 + g.outChannels(), -1, 1) : null;
        return new ConvProblem(g, x, w, bias, relu ? UnaryFn.RELU : null);
    }

    /** A geometry with the output size that the padding (top, left, bottom, right) and strides give. */
    static ConvGeometry geometry(int n, int h, int w, int c, int kh, int kw, int oc, int sh, int sw, int top,
                                 int left, int bottom, int right) {
        int outH = (h + top + bottom - kh) / sh + 1;
        int outW = (w + left + right - kw) / sw + 1;
        return new ConvGeometry(n, h, w, c, kh, kw, oc, sh, sw, top, left, outH, outW);
    }

    /** Whether the activation is relu. */
    boolean relu() {
        return fn != null;
    }

    /** Elements of the output ({@code batch x outH x outW x outChannels}). */
    int outputSize() {
        return g.batch() * g.outH() * g.outW() * g.outChannels();
    }

    /** A copy of {@code out} with the output of im2col + gemm written from offset 1. */
    float[] viaColumns(float[] out) {
        float[] y = out.clone();
        VectorConv.viaColumns(g, x, 3, w, 5, bias, 2, fn, 0f, y, 1);
        return y;
    }

    /** A copy of {@code out} with the scalar reference's output written from offset 1. */
    float[] reference(float[] out) {
        float[] y = out.clone();
        SCALAR.conv2dBiasActivation(g, x, 3, w, 5, bias, 2, fn, 0f, y, 1);
        return y;
    }

    /** Names the check in a failure message. */
    @Override
    public String toString() {
        return "conv2d " + g + " bias=" + (bias != null) + " relu=" + relu();
    }
}
