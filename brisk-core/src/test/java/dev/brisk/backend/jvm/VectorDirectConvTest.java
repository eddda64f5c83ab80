package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.UnaryFn;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The direct convolution gives exactly the bits of the im2col + gemm path it replaces for shallow kernels (with
 * and without bias and relu, over padding and strides, on channel counts that are not multiples of the vector
 * length, with one and two threads), and matches the scalar reference.
 */
class VectorDirectConvTest {
    private final Random random = new Random(20261203);

    @Test
    void directConvolutionIsTheColumnPathBitForBit() {
        ConvGeometry[] convs = {
            geometry(1, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 0, 0),
            geometry(3, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 0, 0),
            geometry(3, 9, 7, 1, 3, 3, 7, 1, 1, 0, 0, 0, 0),
            geometry(3, 9, 7, 1, 3, 3, 33, 1, 1, 1, 1, 1, 1),
            geometry(1, 11, 13, 1, 3, 3, 65, 2, 2, 1, 1, 1, 1),
            geometry(3, 10, 9, 1, 3, 3, 32, 2, 1, 0, 1, 1, 0),
            geometry(1, 6, 8, 1, 5, 3, 129, 1, 1, 2, 1, 2, 1),
            geometry(3, 7, 5, 3, 3, 3, 16, 1, 1, 1, 1, 1, 1),
            geometry(1, 7, 9, 2, 3, 2, 1, 1, 2, 0, 1, 0, 0),
            geometry(3, 5, 5, 1, 1, 1, 6, 1, 1, 0, 0, 0, 0),
            geometry(2, 4, 4, 1, 5, 5, 8, 1, 1, 2, 2, 2, 2),
            geometry(3, 9, 11, 8, 3, 3, 40, 1, 1, 1, 1, 1, 1),
            geometry(1, 15, 15, 10, 3, 3, 64, 2, 2, 0, 0, 0, 0),
            geometry(128, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 0, 0),
            // Blocks of eight pixels (512-bit vectors): two pairs of vectors of channels, a stride over three.
            geometry(2, 21, 23, 3, 3, 3, 64, 2, 2, 1, 1, 1, 1),
        };
        withBudgets(() -> {
            for (ConvGeometry g : convs) {
                assertTrue(VectorDirectConv.applies(g, UnaryFn.RELU), g.toString());
                for (int flags = 0; flags < 4; flags++) {
                    check(g, (flags & 1) != 0, (flags & 2) != 0);
                }
            }
        });
    }

    /** Deep kernels and activations other than relu stay on the column path. */
    @Test
    void deepKernelsAndOtherActivationsAreNotDirect() {
        ConvGeometry deep = geometry(2, 13, 13, 11, 3, 3, 64, 1, 1, 0, 0, 0, 0);
        ConvGeometry shallow = geometry(2, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 0, 0);
        assertTrue(!VectorDirectConv.applies(deep, null));
        assertTrue(VectorDirectConv.applies(shallow, null));
        assertTrue(!VectorDirectConv.applies(shallow, UnaryFn.TANH));
    }

    private void check(ConvGeometry g, boolean withBias, boolean relu) {
        ConvProblem p = ConvProblem.of(random, g, withBias, relu);
        // Three elements past the output: a kernel that writes beyond it changes them.
        float[] out = uniform(random, 1 + p.outputSize() + 3, -1, 1);
        float[] direct = out.clone();
        VectorDirectConv.conv2d(g, p.x(), 3, p.w(), 5, p.bias(), 2, relu, direct, 1);
        assertSameBits(p + " vs im2col", p.viaColumns(out), direct);
        assertClose(p + " vs reference", p.reference(out), direct, 1e-4f, 1e-4f);
    }
}
