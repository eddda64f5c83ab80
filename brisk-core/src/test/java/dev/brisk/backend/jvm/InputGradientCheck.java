package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;

/**
 * The check every input-gradient kernel of a convolution takes: against the scalar reference at one and at two
 * threads, with stale values in dx (it must be overwritten) and zeros around it that a stray write would change, and
 * the same bits at both budgets. dy sits at offset 2, the filter at offset 5, dx at offset 3.
 */
final class InputGradientCheck {
    private static final Kernels SCALAR = new ScalarKernels();

    /** An input-gradient kernel under test: {@code dx = conv2d_backward_input(dy, w)}, dx overwritten. */
    interface Kernel {
        void backwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff);
    }

    private InputGradientCheck() {
    }

    /**
     * Runs the check and returns what the kernel wrote at one thread (dx from offset 3), with the dy and filter it
     * was given, for the caller's own comparisons.
     */
    static Result check(Random random, ConvGeometry g, Kernel kernel) {
        float[] dy = uniform(random, 2 + g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
        float[] w = uniform(random, 5 + g.kernelH() * g.kernelW() * g.channels() * g.outChannels(), -1, 1);
        int dxSize = g.batch() * g.height() * g.width() * g.channels();
        float[] reference = new float[3 + dxSize + 2];
        SCALAR.conv2dBackwardInput(g, dy, 2, w, 5, reference, 3);
        float[][] dx = new float[2][];
        for (int threads = 1; threads <= 2; threads++) {
            float[] out = uniform(random, reference.length, -1, 1);
            out[0] = out[1] = out[2] = out[3 + dxSize] = out[4 + dxSize] = 0f;
            ThreadBudget.set(threads);
            try {
                kernel.backwardInput(g, dy, 2, w, 5, out, 3);
            } finally {
                ThreadBudget.reset();
            }
            assertClose("input gradient " + g + " at " + threads + " threads", reference, out, 1e-4f, 1e-4f);
            dx[threads - 1] = out;
        }
        assertSameBits("input gradient at 1 and 2 threads, " + g, dx[0], dx[1]);
        return new Result(dy, w, dx[0]);
    }

    /**
     * What a check ran on and what the kernel wrote at one thread.
     *
     * @param dy the gradient of the output, from offset 2
     * @param w the filter, from offset 5
     * @param dx the kernel's input gradient, from offset 3
     */
    record Result(float[] dy, float[] w, float[] dx) {
        /** The input gradient the backend's kernels give on the same operands (dx from offset 3). */
        float[] viaKernels(ConvGeometry g) {
            float[] out = new float[dx.length];
            new VectorKernels().conv2dBackwardInput(g, dy, 2, w, 5, out, 3);
            return out;
        }
    }
}
