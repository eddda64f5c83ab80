package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The filter gradient read straight from the images matches the scalar reference (one panel of output channels
 * from 6 to 64 input channels, same and valid padding, strides, uneven kernels, images whose output rows do not fill a block), writes
 * nothing outside dw and ignores what it held, and is what the convolution layer's kernels run (the same bits at one
 * thread, one slot; close to the reference with the batch split into two slots).
 */
class VectorImplicitFilterGradientTest {
    private static final int NR = VectorGemm.NR;
    private static final Kernels SCALAR = new ScalarKernels();
    private final Random random = new Random(20261207);

    @Test
    void filterGradientMatchesTheReference() {
        ConvGeometry[] convs = {
            geometry(3, 14, 14, 32, 3, 3, NR, 1, 1, 1, 1, 1, 1),
            geometry(2, 28, 28, 32, 3, 3, NR, 1, 1, 1, 1, 1, 1),
            geometry(2, 7, 9, 64, 3, 3, NR, 1, 1, 1, 1, 1, 1),
            geometry(3, 15, 14, 16, 3, 3, NR, 2, 2, 0, 0, 1, 1),
            geometry(2, 9, 11, 6, 5, 3, NR, 1, 2, 2, 1, 0, 3),
            geometry(2, 6, 5, 32, 3, 3, NR, 1, 1, 0, 0, 0, 0),
        };
        for (ConvGeometry g : convs) {
            assertTrue(VectorImplicitFilterGradient.applies(g), g.toString());
            float[] x = uniform(random, 3 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
            float[] dy = uniform(random, 2 + g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
            int dwSize = g.kernelH() * g.kernelW() * g.channels() * g.outChannels();
            float[] reference = new float[1 + dwSize + 2];
            SCALAR.conv2dBackwardFilter(g, x, 3, dy, 2, reference, 1);
            // Stale values in dw (it is overwritten) and zeros around it that a stray write would change.
            float[] dw = uniform(random, reference.length, -1, 1);
            dw[0] = dw[1 + dwSize] = dw[2 + dwSize] = 0f;
            VectorImplicitFilterGradient.filterGradient(g, 0, g.batch(), x, 3, dy, 2, dw, 1);
            assertClose("filter gradient " + g, reference, dw, 1e-4f, 1e-4f);
            for (int threads = 1; threads <= 2; threads++) {
                float[] viaKernels = new float[reference.length];
                ThreadBudget.set(threads);
                try {
                    new VectorKernels().conv2dBackwardFilter(g, x, 3, dy, 2, viaKernels, 1);
                } finally {
                    ThreadBudget.reset();
                }
                assertClose("the kernels' filter gradient at " + threads + " threads, " + g, reference, viaKernels,
                        1e-4f, VectorWinogradConvTest.tolerance(g, reference, 1e-4f));
                if (threads == 1 && !VectorWinogradFilterGradient.applies(g)) {
                    // Where the Winograd kernel applies, the kernels take it instead (VectorWinogradConvTest).
                    assertSameBits("the kernels' filter gradient at one thread, " + g, dw, viaKernels);
                }
            }
        }
    }

    /** 1x1 kernels, partial or several panels and kernel rows that six taps would straddle keep the other paths. */
    @Test
    void onlyWholePanelsAndRowsOfWholeTiles() {
        assertFalse(VectorImplicitFilterGradient.applies(geometry(2, 14, 14, 32, 1, 1, NR, 2, 2, 0, 0, 0, 0)));
        assertFalse(VectorImplicitFilterGradient.applies(geometry(2, 14, 14, 32, 3, 3, NR + 8, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorImplicitFilterGradient.applies(geometry(2, 14, 14, 3, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorImplicitFilterGradient.applies(geometry(2, 14, 14, 64, 3, 3, 2 * NR, 1, 1, 1, 1, 1, 1)));
    }
}
