package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

/**
 * The narrow convolution (one vector of channels): its forward pass gives exactly the bits of im2col + gemm (with
 * and without bias and relu, over padding on every side and strides, with one and two threads); its input and
 * filter gradients match the scalar reference and do not depend on the thread budget.
 */
class VectorNarrowConvTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final int L = FloatVector.SPECIES_PREFERRED.length();
    private final Random random = new Random(20261206);

    /** Narrow geometries: a full vector and a partial one, same and valid padding, strides 1 and 2, 1x1 and 5x5. */
    private static ConvGeometry[] geometries() {
        int full = L;
        int part = L / 2 + 1;
        return new ConvGeometry[] {
            geometry(3, 28, 28, 16, 3, 3, full, 1, 1, 1, 1, 1, 1),
            geometry(2, 14, 13, 5, 3, 3, part, 1, 1, 1, 1, 1, 1),
            geometry(2, 28, 28, 1, 3, 3, full, 1, 1, 1, 1, 1, 1),
            geometry(2, 27, 26, 3, 3, 3, full, 2, 2, 0, 0, 1, 1),
            geometry(1, 15, 16, 7, 3, 3, part, 1, 1, 0, 0, 0, 0),
            geometry(2, 13, 14, 4, 5, 5, full, 1, 1, 2, 2, 2, 2),
            geometry(2, 12, 25, 6, 1, 1, part, 1, 2, 0, 0, 0, 0),
            geometry(1, 14, 14, 9, 3, 2, full, 1, 1, 2, 0, 1, 1),
            geometry(2, 17, 19, 8, 3, 3, part, 2, 1, 0, 1, 1, 1),
            // Rows of 32 pixels take blocks of sixteen; those of 28 (above), blocks of fourteen.
            geometry(1, 6, 32, 5, 3, 3, full, 1, 1, 1, 1, 1, 1),
        };
    }

    /**
     * Kernels three wide at stride 1 run in their own order: close to the reference, and the pooled forward pass
     * gives the unpooled one's bits; every other narrow kernel is gemm's arithmetic, bit for bit.
     */
    @Test
    void forwardIsTheColumnPathBitForBit() {
        withBudgets(() -> {
            for (ConvGeometry g : geometries()) {
                assertTrue(VectorNarrowConv.applies(g), g.toString());
                for (int flags = 0; flags < 4; flags++) {
                    forward(g, (flags & 1) != 0, (flags & 2) != 0);
                }
            }
        });
    }

    @Test
    void gradientsMatchTheScalarReference() {
        for (ConvGeometry g : geometries()) {
            assertTrue(VectorNarrowConv.filterGradientApplies(g), g.toString());
            float[] x = uniform(random, 3 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
            float[] w = uniform(random, 5 + g.kernelH() * g.kernelW() * g.channels() * g.outChannels(), -1, 1);
            float[] dy = uniform(random, 2 + g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
            int dwSize = g.kernelH() * g.kernelW() * g.channels() * g.outChannels();
            float[] dwReference = new float[1 + dwSize];
            SCALAR.conv2dBackwardFilter(g, x, 3, dy, 2, dwReference, 1);
            dwReference[0] = 7f;
            float[] dw = uniform(random, 1 + dwSize, -1, 1);
            dw[0] = 7f;
            VectorNarrowFilterGradient.filterGradient(g, 0, g.batch(), x, 3, dy, 2, dw, 1);
            assertClose("filter gradient " + g, dwReference, dw, 1e-4f, 1e-4f);
            // Through the kernels, the batch split into slots per thread.
            withBudgets(() -> {
                float[] split = uniform(random, 1 + dwSize, -1, 1);
                split[0] = 7f;
                new VectorKernels().conv2dBackwardFilter(g, x, 3, dy, 2, split, 1);
                assertClose("filter gradient (kernels) " + g, dwReference, split, 1e-4f, 1e-4f);
            });
            if (VectorNarrowConv.inputGradientApplies(g)) {
                float[] dxReference = new float[3 + g.batch() * g.height() * g.width() * g.channels()];
                SCALAR.conv2dBackwardInput(g, dy, 2, w, 5, dxReference, 3);
                float[][] dx = new float[2][];
                for (int threads = 1; threads <= 2; threads++) {
                    int t = threads;
                    float[] out = uniform(random, dxReference.length, -1, 1);
                    out[0] = 0f;
                    out[1] = 0f;
                    out[2] = 0f;
                    ThreadBudget.set(t);
                    try {
                        VectorNarrowInputGradient.backwardInput(g, dy, 2, w, 5, out, 3);
                    } finally {
                        ThreadBudget.reset();
                    }
                    dx[threads - 1] = out;
                    assertClose("input gradient " + g, dxReference, out, 1e-4f, 1e-4f);
                }
                assertArrayEquals(dx[0], dx[1], "input gradient at 1 and 2 threads, " + g);
            }
        }
    }

    /**
     * Stride-1 narrow inputs take the input gradient here; wider inputs, strides and a quarter of the lanes do not;
     * the filter gradient goes by rows for three-wide kernels on channels in fours.
     */
    @Test
    void appliesByChannelsAndStride() {
        assertTrue(VectorNarrowConv.inputGradientApplies(geometry(1, 28, 28, L, 3, 3, L, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorNarrowConv.inputGradientApplies(geometry(1, 28, 28, L, 3, 3, L, 2, 2, 0, 0, 1, 1)));
        assertFalse(VectorNarrowConv.inputGradientApplies(geometry(1, 28, 28, 2 * L, 3, 3, L, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorNarrowConv.applies(geometry(1, 28, 28, 1, 3, 3, 2 * L, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorNarrowConv.applies(geometry(1, 28, 28, 1, 3, 3, L / 2, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorNarrowConv.applies(geometry(1, 7, 7, 1, 3, 3, L, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorNarrowConv.applies(geometry(1, 28, 28, 64, 3, 3, L, 1, 1, 1, 1, 1, 1)));
        assertTrue(VectorNarrowFilterGradient.filterByRows(geometry(1, 28, 28, 16, 3, 3, L, 1, 1, 1, 1, 1, 1)));
        assertEquals(VectorNarrowConv.SHORT_ROW, VectorNarrowConv.rowBlock(28));
        assertEquals(VectorNarrowConv.ROW, VectorNarrowConv.rowBlock(32));
        assertEquals(VectorNarrowConv.ROW, VectorNarrowConv.rowBlock(30));
        assertTrue(VectorNarrowFilterGradient.filterByRows(geometry(2, 17, 19, 8, 3, 3, L, 2, 1, 0, 1, 1, 1)));
        assertFalse(VectorNarrowFilterGradient.filterByRows(geometry(1, 28, 28, 6, 3, 3, L, 1, 1, 1, 1, 1, 1)));
    }

    private void forward(ConvGeometry g, boolean withBias, boolean relu) {
        ConvProblem p = ConvProblem.of(random, g, withBias, relu);
        float[] out = uniform(random, 1 + p.outputSize(), -1, 1);
        float[] narrow = out.clone();
        VectorNarrowConv.conv2d(g, p.x(), 3, p.w(), 5, p.bias(), 2, relu, narrow, 1);
        assertClose(p + " vs reference", p.reference(out), narrow, 1e-4f, 1e-4f);
        pooledAgrees(p, narrow);
        if (!VectorNarrowConv.byRows(g)) {
            assertSameBits(p + " vs im2col", p.viaColumns(out), narrow);
        }
    }

    /** The fused convolution and 2x2 max pooling gives the pooling of the unfused output {@code y}, bit for bit. */
    private static void pooledAgrees(ConvProblem c, float[] y) {
        ConvGeometry g = c.g();
        PoolGeometry p = new PoolGeometry(g.batch(), g.outH(), g.outW(), g.outChannels(), 2, 2, 2, 2, 0, 0,
                g.outH() / 2, g.outW() / 2);
        int size = g.batch() * p.outH() * p.outW() * g.outChannels();
        float[] expected = new float[size];
        float[] expectedCells = new float[size];
        new VectorKernels().maxPool2d(p, y, 1, expected, 0, expectedCells, 0);
        float[] pooled = new float[size];
        float[] cells = new float[size];
        VectorConv.conv2dMaxPool(g, c.x(), 3, c.w(), 5, c.bias(), 2, c.fn(), 0f, p, pooled, 0, cells, 0);
        assertArrayEquals(expected, pooled, "pooled " + g);
        assertArrayEquals(expectedCells, cells, "pooled cells " + g);
    }
}
