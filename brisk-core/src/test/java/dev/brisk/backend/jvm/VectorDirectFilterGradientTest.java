package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The direct filter gradient gives exactly the bits of the im2col + gemm path for the same chunks of output rows
 * (several chunks, several gemm depth blocks per chunk, channel counts that are not multiples of the vector
 * length), and the whole kernel matches the scalar reference with one and two threads.
 */
class VectorDirectFilterGradientTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final Kernels VECTOR = new VectorKernels();
    private static final ConvGeometry[] CONVS = {
        new ConvGeometry(1, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
        new ConvGeometry(3, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
        new ConvGeometry(3, 9, 7, 1, 3, 3, 7, 1, 1, 0, 0, 7, 5),
        new ConvGeometry(3, 9, 7, 1, 3, 3, 33, 1, 1, 0, 0, 7, 5),
        new ConvGeometry(2, 11, 13, 1, 3, 3, 65, 2, 2, 0, 0, 5, 6),
        new ConvGeometry(3, 10, 9, 3, 3, 3, 16, 1, 1, 0, 0, 8, 7),
        new ConvGeometry(1, 7, 9, 2, 3, 2, 1, 1, 2, 0, 0, 5, 4),
        new ConvGeometry(3, 5, 5, 1, 1, 1, 6, 1, 1, 0, 0, 5, 5),
        new ConvGeometry(2, 9, 9, 4, 3, 3, 40, 1, 1, 0, 0, 7, 7),
        new ConvGeometry(1, 12, 12, 1, 5, 5, 32, 1, 1, 0, 0, 8, 8),
    };
    private final Random random = new Random(20261203);

    @Test
    void directFilterGradientIsTheColumnPathBitForBit() {
        for (ConvGeometry g : CONVS) {
            assertTrue(VectorDirectFilterGradient.applies(g), g.toString());
            int rows = g.batch() * g.outH() * g.outW();
            for (int chunk : new int[] {VectorConv.chunkRows(g), 7, 50, Math.max(1, rows - 1)}) {
                check(g, chunk);
            }
        }
    }

    @Test
    void deepKernelsAndWindowsOverThePaddingAreNotDirect() {
        assertFalse(VectorDirectFilterGradient.applies(new ConvGeometry(1, 8, 8, 1, 3, 3, 8, 1, 1, 1, 1, 8, 8)));
        // No padding at the top or left, but the last window hangs over the bottom and right.
        assertFalse(VectorDirectFilterGradient.applies(new ConvGeometry(1, 8, 8, 1, 3, 3, 8, 2, 2, 0, 0, 4, 4)));
        assertFalse(VectorDirectFilterGradient.applies(new ConvGeometry(1, 13, 13, 5, 3, 3, 8, 1, 1, 0, 0, 11, 11)));
    }

    @Test
    void directFilterGradientMatchesTheScalarKernels() {
        withBudgets(() -> {
            for (ConvGeometry g : CONVS) {
                int k = Im2Col.rowLength(g) * g.outChannels();
                float[] x = uniform(random, 3 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
                float[] dy = uniform(random, 1 + g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
                float[] expected = uniform(random, 6 + k + 2, -1, 1);
                float[] actual = expected.clone();
                SCALAR.conv2dBackwardFilter(g, x, 3, dy, 1, expected, 6);
                VECTOR.conv2dBackwardFilter(g, x, 3, dy, 1, actual, 6);
                assertClose("dw " + g, expected, actual, 1e-4f, 1e-4f);
            }
        });
    }

    private void check(ConvGeometry g, int chunk) {
        int k = Im2Col.rowLength(g) * g.outChannels();
        float[] x = uniform(random, 3 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
        for (int i = 0; i < x.length; i += 5) {
            x[i] = i % 2 == 0 ? 0f : -0f;
        }
        float[] dy = uniform(random, 1 + g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
        float[] columns = uniform(random, 6 + k + 2, -1, 1);
        float[] direct = columns.clone();
        VectorConv.filterGradientViaColumns(g, 0, g.batch(), chunk, x, 3, dy, 1, columns, 6);
        VectorDirectFilterGradient.filterGradient(g, 0, g.batch(), chunk, x, 3, dy, 1, direct, 6);
        assertSameBits("dw " + g + " chunk " + chunk + " vs im2col", columns, direct);
    }
}
