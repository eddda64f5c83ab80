package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.UnaryFn;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The forward convolution read straight from the image gives exactly the bits of im2col + gemm (with and without
 * bias and relu, same and valid padding, strides, depths of one and of several gemm depth blocks, images whose
 * pixel count is not a multiple of the register tile's rows, one and two threads), and matches the scalar
 * reference.
 */
class VectorImplicitConvTest {
    private static final int NR = VectorGemm.NR;
    private final Random random = new Random(20261207);

    @Test
    void implicitConvolutionIsTheColumnPathBitForBit() {
        ConvGeometry[] convs = {
            geometry(3, 14, 14, 32, 3, 3, NR, 1, 1, 1, 1, 1, 1),
            geometry(2, 7, 7, 64, 3, 3, 2 * NR, 1, 1, 1, 1, 1, 1),
            geometry(2, 9, 8, 32, 3, 3, 2 * NR, 2, 2, 0, 0, 1, 1),
            geometry(3, 6, 7, 16, 3, 3, NR, 1, 1, 0, 0, 0, 0),
            geometry(1, 5, 9, 40, 3, 5, NR, 1, 2, 2, 1, 2, 1),
            geometry(2, 11, 10, 24, 5, 3, NR, 2, 1, 2, 1, 2, 1),
            geometry(4, 28, 28, 32, 3, 3, NR, 1, 1, 1, 1, 1, 1),
        };
        withBudgets(() -> {
            for (ConvGeometry g : convs) {
                // The kernel takes several panels; the convolution layer routes only one panel here.
                assertTrue(VectorImplicitConv.applies(g, UnaryFn.RELU) == (g.outChannels() == NR), g.toString());
                for (int flags = 0; flags < 4; flags++) {
                    check(g, (flags & 1) != 0, (flags & 2) != 0);
                }
            }
        });
    }

    /** Other activations, partial or several panels of channels and short kernel rows stay with the other paths. */
    @Test
    void otherActivationsPartialPanelsAndShortRowsAreNotImplicit() {
        assertFalse(VectorImplicitConv.applies(geometry(2, 8, 8, 32, 3, 3, NR, 1, 1, 1, 1, 1, 1), UnaryFn.TANH));
        assertFalse(VectorImplicitConv.applies(geometry(2, 8, 8, 32, 3, 3, NR + 8, 1, 1, 1, 1, 1, 1), null));
        assertFalse(VectorImplicitConv.applies(geometry(2, 8, 8, 32, 3, 3, 2 * NR, 1, 1, 1, 1, 1, 1), null));
        assertFalse(VectorImplicitConv.applies(geometry(2, 8, 8, 1, 3, 3, NR, 1, 1, 1, 1, 1, 1), null));
    }

    private void check(ConvGeometry g, boolean withBias, boolean relu) {
        ConvProblem p = ConvProblem.of(random, g, withBias, relu);
        // Three elements past the output: a kernel that writes beyond it changes them.
        float[] out = uniform(random, 1 + p.outputSize() + 3, -1, 1);
        float[] implicit = out.clone();
        VectorImplicitConv.conv2d(g, p.x(), 3, p.w(), 5, p.bias(), 2, relu, implicit, 1);
        assertSameBits(p + " vs im2col", p.viaColumns(out), implicit);
        assertClose(p + " vs reference", p.reference(out), implicit, 1e-4f, 1e-4f);
    }
}
