package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.UnaryFn;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Winograd F(2x2, 3x3) convolution matches the scalar reference (forward with and without bias and relu, and the
 * input and filter gradients), on same, valid and uneven padding, odd output sizes (tiles cut by the edge), one and
 * several panels of channels, images of fewer tiles than a group, writing nothing outside its output, with the same
 * bits at one and two threads.
 */
class VectorWinogradConvTest {
    private static final int L = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length();
    private static final int NR = VectorGemm.NR;
    private static final Kernels SCALAR = new ScalarKernels();
    private final Random random = new Random(20261207);

    private static ConvGeometry[] convs() {
        return new ConvGeometry[] {
            geometry(3, 14, 14, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1),
            geometry(2, 11, 11, NR, 3, 3, 2 * NR, 1, 1, 0, 0, 0, 0),
            geometry(2, 10, 9, 2 * NR, 3, 3, NR, 1, 1, 2, 1, 0, 1),
            geometry(5, 28, 28, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1),
            // 16 tiles an image: groups of tiles and the filter gradient's blocks end inside the next image.
            geometry(5, 7, 7, 2 * NR, 3, 3, 2 * NR, 1, 1, 1, 1, 1, 1),
        };
    }

    @Test
    void forwardMatchesTheReference() {
        for (ConvGeometry g : convs()) {
            assertTrue(VectorWinogradConv.applies(g), g.toString());
            for (int flags = 0; flags < 4; flags++) {
                ConvProblem p = ConvProblem.of(random, g, (flags & 1) != 0, (flags & 2) != 0);
                // Three elements past the output: a kernel that writes beyond it changes them.
                float[] out = uniform(random, 1 + p.outputSize() + 3, -1, 1);
                float[][] results = new float[2][];
                int[] run = {0};
                withBudgets(() -> {
                    float[] y = out.clone();
                    VectorWinogradConv.conv2d(g, p.x(), 3, p.w(), 5, p.bias(), 2, p.fn(), 0f, y, 1);
                    assertClose(p + " vs reference", p.reference(out), y, 1e-4f, 1e-4f);
                    results[run[0]++] = y;
                });
                assertSameBits(p + " at 1 and 2 threads", results[0], results[1]);
            }
        }
    }

    /**
     * An activation other than relu, applied to each image once the groups have written it (groups end inside the
     * next image here), gives the bits of the convolution followed by the activation's own loop over the output.
     */
    @Test
    void otherActivationsGiveTheSeparateOpsBits() {
        ConvGeometry g = geometry(5, 7, 7, 2 * NR, 3, 3, 2 * NR, 1, 1, 1, 1, 1, 1);
        ConvProblem p = ConvProblem.of(random, g, true, false);
        int size = p.outputSize();
        float[] separate = new float[1 + size];
        VectorWinogradConv.conv2d(g, p.x(), 3, p.w(), 5, p.bias(), 2, null, 0f, separate, 1);
        VectorEpilogue.biasActivation(separate, 1, g.outChannels(), size / g.outChannels(), g.outChannels(), null, 0,
                UnaryFn.TANH, 0f);
        withBudgets(() -> {
            float[] fused = new float[1 + size];
            VectorWinogradConv.conv2d(g, p.x(), 3, p.w(), 5, p.bias(), 2, UnaryFn.TANH, 0f, fused, 1);
            assertSameBits("tanh after the convolution, " + g, separate, fused);
        });
    }

    @Test
    void inputGradientMatchesTheReference() {
        for (ConvGeometry g : convs()) {
            assertTrue(VectorWinogradConv.inputGradientApplies(g), g.toString());
            int xSize = g.batch() * g.height() * g.width() * g.channels();
            float[] w = uniform(random, 5 + 9 * g.channels() * g.outChannels(), -1, 1);
            float[] dy = uniform(random, 1 + g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
            float[] dx = uniform(random, 4 + xSize + 3, -1, 1);
            float[] expected = dx.clone();
            SCALAR.conv2dBackwardInput(g, dy, 1, w, 5, expected, 4);
            withBudgets(() -> {
                float[] actual = dx.clone();
                VectorWinogradConv.backwardInput(g, dy, 1, w, 5, actual, 4);
                assertClose("input gradient " + g, expected, actual, 1e-4f, 1e-4f);
            });
        }
    }

    @Test
    void filterGradientMatchesTheReference() {
        for (ConvGeometry g : convs()) {
            assertTrue(VectorWinogradFilterGradient.applies(g), g.toString());
            int wSize = 9 * g.channels() * g.outChannels();
            float[] x = uniform(random, 3 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
            float[] dy = uniform(random, 1 + g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
            float[] dw = uniform(random, 6 + wSize + 3, -1, 1);
            float[] expected = dw.clone();
            SCALAR.conv2dBackwardFilter(g, x, 3, dy, 1, expected, 6);
            float[] actual = dw.clone();
            VectorWinogradFilterGradient.filterGradient(g, 0, g.batch(), x, 3, dy, 1, actual, 6);
            assertClose("filter gradient " + g, expected, actual, 1e-4f, 2e-4f);
            // Through the kernels, split into slots at two threads.
            withBudgets(() -> {
                float[] viaKernels = dw.clone();
                new VectorKernels().conv2dBackwardFilter(g, x, 3, dy, 1, viaKernels, 6);
                assertClose("the kernels' filter gradient " + g, expected, viaKernels, 1e-4f, 2e-4f);
            });
        }
    }

    /**
     * Strides, other kernel sizes, channel counts that are not whole panels, transformed filters over 4 MiB and
     * outputs that whole tiles cover with much waste stay with the direct kernels.
     */
    @Test
    void otherConvolutionsAreNotWinograd() {
        assertTrue(VectorWinogradConv.applies(geometry(2, 8, 8, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorWinogradConv.applies(geometry(2, 8, 8, NR, 3, 3, NR, 2, 2, 1, 1, 1, 1)));
        assertFalse(VectorWinogradConv.applies(geometry(2, 8, 8, NR, 5, 5, NR, 1, 1, 2, 2, 2, 2)));
        assertFalse(VectorWinogradConv.applies(geometry(2, 8, 8, L, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorWinogradConv.applies(geometry(2, 8, 8, NR, 3, 3, NR + L, 1, 1, 1, 1, 1, 1)));
        assertTrue(VectorWinogradConv.applies(geometry(2, 7, 7, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorWinogradConv.applies(geometry(2, 5, 5, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        // Transformed filters of 16 x 256 x 256 floats and more.
        assertTrue(VectorWinogradConv.applies(geometry(2, 8, 8, 256, 3, 3, 256, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorWinogradConv.applies(geometry(2, 8, 8, 256, 3, 3, 512, 1, 1, 1, 1, 1, 1)));
        assertFalse(VectorWinogradConv.inputGradientApplies(geometry(2, 8, 8, L, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
    }
}
