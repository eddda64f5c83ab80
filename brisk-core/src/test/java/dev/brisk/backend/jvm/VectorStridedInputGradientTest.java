package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.ops.ConvGeometry;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

/**
 * The input gradient of a convolution three wide at stride 2, straight from dy, matches the scalar reference (same
 * and valid padding, rows whose last block starts odd so that the last pixel is computed alone, one vector and two
 * pairs of vectors of input channels, kernels one, three and five rows high), writes nothing outside dx, gives the
 * same bits at one and two threads, and is what the convolution layer's kernels run.
 */
class VectorStridedInputGradientTest {
    private static final int L = FloatVector.SPECIES_PREFERRED.length();
    private final Random random = new Random(20261208);

    @Test
    void inputGradientMatchesTheReferenceAtAnyThreadCount() {
        ConvGeometry[] convs = {
            geometry(3, 28, 28, L, 3, 3, 2 * L, 2, 2, 0, 0, 1, 1),
            geometry(2, 29, 29, L, 3, 3, 24, 2, 2, 0, 0, 0, 0),
            geometry(2, 30, 19, L, 3, 3, 5, 2, 2, 0, 0, 1, 0),
            geometry(2, 14, 14, 2 * L, 3, 3, 4 * L, 2, 2, 0, 0, 1, 1),
            geometry(3, 15, 11, 4 * L, 3, 3, 7, 2, 2, 0, 0, 0, 0),
            geometry(2, 12, 20, L, 1, 3, 3, 2, 2, 0, 2, 0, 1),
            geometry(2, 13, 18, 2 * L, 5, 3, 6, 2, 2, 2, 0, 2, 1),
        };
        for (ConvGeometry g : convs) {
            assertTrue(VectorStridedInputGradient.applies(g), g.toString());
            InputGradientCheck.Result r =
                    InputGradientCheck.check(random, g, VectorStridedInputGradient::backwardInput);
            assertSameBits("the kernels' input gradient, " + g, r.dx(), r.viaKernels(g));
        }
    }

    /**
     * Stride 1, other kernel widths, an odd left padding, channel counts that are not one vector or whole pairs, and
     * rows no longer than a block keep the other paths.
     */
    @Test
    void onlyThreeWideStrideTwoKernelsOverWholeVectors() {
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 28, 28, L, 3, 3, 32, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 28, 28, L, 3, 3, 32, 1, 2, 1, 0, 1, 1)));
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 28, 28, L, 5, 5, 32, 2, 2, 2, 2, 1, 1)));
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 28, 28, L, 1, 1, 32, 2, 2, 0, 0, 0, 0)));
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 28, 28, L, 3, 3, 32, 2, 2, 1, 1, 1, 1)));
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 28, 28, 3 * L, 3, 3, 32, 2, 2, 0, 0, 1, 1)));
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 28, 28, L / 2, 3, 3, 32, 2, 2, 0, 0, 1, 1)));
        assertFalse(VectorStridedInputGradient.applies(geometry(2, 16, 16, L, 3, 3, 32, 2, 2, 0, 0, 1, 1)));
        assertTrue(VectorStridedInputGradient.applies(geometry(2, 17, 17, L, 3, 3, 32, 2, 2, 0, 0, 0, 0)));
    }
}
