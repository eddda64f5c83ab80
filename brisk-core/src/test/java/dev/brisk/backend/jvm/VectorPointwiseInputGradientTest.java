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
 * The input gradient of a strided 1x1 convolution, straight from dy, matches the scalar reference (stride 2 both
 * ways and 3 by 2, odd sizes whose last row and column no window reads, rows of fewer and more dy pixels than a
 * block, one and two vectors of input channels, output channels that are not whole vectors), writes nothing outside
 * dx, gives the same bits at one and two threads, and is what the convolution layer's kernels run.
 */
class VectorPointwiseInputGradientTest {
    private static final int L = FloatVector.SPECIES_PREFERRED.length();
    private final Random random = new Random(20261208);

    @Test
    void inputGradientMatchesTheReferenceAtAnyThreadCount() {
        ConvGeometry[] convs = {
            geometry(3, 28, 28, L, 1, 1, 2 * L, 2, 2, 0, 0, 0, 0),
            geometry(2, 14, 14, 2 * L, 1, 1, 4 * L, 2, 2, 0, 0, 0, 0),
            geometry(2, 15, 13, L, 1, 1, 7, 2, 2, 0, 0, 0, 0),
            geometry(2, 11, 9, 2 * L, 1, 1, 5, 3, 2, 0, 0, 0, 0),
            geometry(3, 5, 6, L, 1, 1, 3, 2, 2, 0, 0, 0, 0),
        };
        for (ConvGeometry g : convs) {
            assertTrue(VectorPointwiseInputGradient.applies(g), g.toString());
            InputGradientCheck.Result r =
                    InputGradientCheck.check(random, g, VectorPointwiseInputGradient::backwardInput);
            assertSameBits("the kernels' input gradient, " + g, r.dx(), r.viaKernels(g));
        }
    }

    /** Stride 1, wider kernels, padding, and input channels other than one or two vectors keep the other paths. */
    @Test
    void onlyStridedPointwiseKernelsOverOneOrTwoVectors() {
        assertFalse(VectorPointwiseInputGradient.applies(geometry(2, 28, 28, L, 1, 1, 32, 1, 1, 0, 0, 0, 0)));
        assertFalse(VectorPointwiseInputGradient.applies(geometry(2, 28, 28, L, 3, 3, 32, 2, 2, 0, 0, 0, 0)));
        assertFalse(VectorPointwiseInputGradient.applies(geometry(2, 28, 28, L, 1, 1, 32, 2, 2, 1, 1, 0, 0)));
        assertFalse(VectorPointwiseInputGradient.applies(geometry(2, 28, 28, 3 * L, 1, 1, 32, 2, 2, 0, 0, 0, 0)));
        assertFalse(VectorPointwiseInputGradient.applies(geometry(2, 28, 28, L / 2, 1, 1, 32, 2, 2, 0, 0, 0, 0)));
        assertTrue(VectorPointwiseInputGradient.applies(geometry(2, 28, 28, 2 * L, 1, 1, 32, 1, 2, 0, 0, 0, 0)));
    }
}
