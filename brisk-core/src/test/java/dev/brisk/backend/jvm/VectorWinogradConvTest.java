package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.assertSameBits;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static dev.brisk.backend.jvm.ConvProblem.geometry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.UnaryFn;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Winograd convolutions, F(2x2, 3x3) and F(4x4, 3x3), match the scalar reference (forward with and without bias
 * and relu, and the input and filter gradients), on same, valid and uneven padding, output sizes that are not whole
 * tiles (tiles cut by the edge), one and several panels of channels, images of fewer tiles than a group, writing
 * nothing outside its output, with the same bits at one and two threads. F(4x4, 3x3) is held to a tolerance
 * proportional to the output's size: its transform's coefficients (up to 8, and 1/6) round more.
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

    /** Runs {@code test} with each tile size forced, then lets the kernels choose again. */
    private static void forEachTile(java.util.function.IntConsumer test) {
        try {
            for (int tile : new int[] {2, 4}) {
                VectorWinogradConv.forcedTile = tile;
                test.accept(tile);
            }
        } finally {
            VectorWinogradConv.forcedTile = 0;
        }
    }

    /** The absolute tolerance for a result of {@code tile}: F(4x4, 3x3)'s is 2e-4 of the expected values' RMS. */
    private static float tolerance(int tile, float[] expected, float f2) {
        if (tile == 2) {
            return f2;
        }
        double squares = 0;
        for (float e : expected) {
            squares += e * (double) e;
        }
        return Math.max(f2, (float) (2e-4 * Math.sqrt(squares / expected.length)));
    }

    /**
     * The absolute tolerance for the kernels' result of {@code g} (any of its passes), held to {@code direct} where
     * they compute it directly or by F(2x2, 3x3); for other tests that reach Winograd's kernels through the kernels.
     */
    static float tolerance(ConvGeometry g, float[] expected, float direct) {
        boolean four = VectorWinogradConv.applies(g) && VectorWinogradConv.tile(g) == 4;
        return tolerance(four ? 4 : 2, expected, direct);
    }

    @Test
    void forwardMatchesTheReference() {
        forEachTile(this::forwardMatchesTheReference);
    }

    private void forwardMatchesTheReference(int tile) {
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
                    float[] expected = p.reference(out);
                    assertClose("F" + tile + " " + p + " vs reference", expected, y, 1e-4f,
                            tolerance(tile, expected, 1e-4f));
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
        forEachTile(tile -> activationAfterTheConvolution());
    }

    private void activationAfterTheConvolution() {
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
        forEachTile(this::inputGradientMatchesTheReference);
    }

    private void inputGradientMatchesTheReference(int tile) {
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
                assertClose("F" + tile + " input gradient " + g, expected, actual, 1e-4f,
                        tolerance(tile, expected, 1e-4f));
            });
        }
    }

    @Test
    void filterGradientMatchesTheReference() {
        forEachTile(this::filterGradientMatchesTheReference);
    }

    private void filterGradientMatchesTheReference(int tile) {
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
            float tolerance = tolerance(tile, expected, 2e-4f);
            assertClose("F" + tile + " filter gradient " + g, expected, actual, 1e-4f, tolerance);
            // Through the kernels, split into slots at two threads.
            withBudgets(() -> {
                float[] viaKernels = dw.clone();
                new VectorKernels().conv2dBackwardFilter(g, x, 3, dy, 1, viaKernels, 6);
                assertClose("F" + tile + " kernels' filter gradient " + g, expected, viaKernels, 1e-4f, tolerance);
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

    /**
     * F(4x4, 3x3) where it saves a quarter of F(2x2, 3x3)'s products or more, counting what the tiles cover past the
     * output's edge, and where its transformed filter (36 matrices) fits the limit; F(2x2, 3x3) elsewhere.
     */
    @Test
    void theTileFollowsTheProducts() {
        // 7x7, 28x28: 0.56 of F(2x2, 3x3)'s products; 14x14: 16 tiles of 4 (16x16) against 49 of 2, 0.73.
        assertEquals(4, VectorWinogradConv.tile(geometry(2, 7, 7, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        assertEquals(4, VectorWinogradConv.tile(geometry(2, 28, 28, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        assertEquals(4, VectorWinogradConv.tile(geometry(2, 14, 14, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        // 10x10: 9 tiles of 4 (12x12) against 25 of 2, 0.81.
        assertEquals(2, VectorWinogradConv.tile(geometry(2, 10, 10, NR, 3, 3, NR, 1, 1, 1, 1, 1, 1)));
        // 36 x 256 x 256 floats of transformed filter: over the limit, so F(2x2, 3x3).
        assertEquals(2, VectorWinogradConv.tile(geometry(2, 8, 8, 256, 3, 3, 256, 1, 1, 1, 1, 1, 1)));
    }
}
