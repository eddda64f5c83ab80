package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.ops.ConvGeometry;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The input gradient of a stride-1 convolution over one gemm panel of channels, computed as the implicit forward
 * convolution of dy, matches the scalar reference (same and wider padding, uneven kernels and padding, depths of one
 * and of several gemm depth blocks, images whose pixel count is not a multiple of the register tile's rows), writes
 * nothing outside dx, gives the same bits at one and two threads, and is what the convolution layer's kernels run.
 */
class VectorImplicitInputGradientTest {
    private static final int NR = VectorGemm.NR;
    private final Random random = new Random(20261207);

    @Test
    void inputGradientMatchesTheReferenceAtAnyThreadCount() {
        ConvGeometry[] convs = {
            geometry(3, 14, 14, NR, 3, 3, 32, 1, 1, 1, 1, 1, 1),
            geometry(2, 7, 9, NR, 3, 3, 64, 1, 1, 1, 1, 1, 1),
            geometry(3, 8, 7, NR, 3, 3, 16, 1, 1, 2, 2, 0, 0),
            geometry(2, 9, 11, NR, 3, 5, 24, 1, 1, 2, 1, 0, 3),
            geometry(2, 28, 28, NR, 3, 3, 32, 1, 1, 1, 1, 1, 1),
        };
        for (ConvGeometry g : convs) {
            assertTrue(VectorImplicitInputGradient.applies(g), g.toString());
            InputGradientCheck.Result r =
                    InputGradientCheck.check(random, g, VectorImplicitInputGradient::backwardInput);
            if (!VectorWinogradConv.inputGradientApplies(g)) {
                // Where the Winograd kernel applies, the kernels take it instead (VectorWinogradConvTest).
                assertSameBits("the kernels' input gradient, " + g, r.dx(), r.viaKernels(g));
            }
        }
    }

    /**
     * Strides, 1x1 kernels, other channel counts, padding as wide as the kernel and outputs smaller than the input
     * (valid padding) keep the other paths.
     */
    @Test
    void onlyStrideOneKernelsOverOnePanelOfChannels() {
        assertFalse(VectorImplicitInputGradient.applies(geometry(2, 14, 14, NR, 3, 3, 64, 2, 2, 0, 0, 1, 1)));
        assertFalse(VectorImplicitInputGradient.applies(geometry(2, 14, 14, NR, 1, 1, 64, 1, 1, 0, 0, 0, 0)));
        assertFalse(VectorImplicitInputGradient.applies(geometry(2, 14, 14, 2 * NR, 3, 3, 64, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorImplicitInputGradient.applies(geometry(2, 14, 14, NR / 2, 3, 3, 32, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorImplicitInputGradient.applies(geometry(2, 14, 14, NR, 3, 3, 32, 1, 1, 3, 1, 1, 1)));
        assertFalse(VectorImplicitInputGradient.applies(geometry(2, 13, 13, NR, 3, 3, 64, 1, 1, 0, 0, 0, 0)));
        // Kernel rows of kw oc shorter than two vectors are the shallow kernels' work.
        assertFalse(VectorImplicitInputGradient.applies(geometry(2, 14, 14, NR, 3, 1, 8, 1, 1, 1, 0, 1, 0)));
    }
}
