package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import org.junit.jupiter.api.Test;

/** The reference kernels against values worked out by hand. */
class ScalarKernelsTest {
    private static final float EPS = 1e-6f;
    private final Kernels k = new ScalarKernels();

    @Test
    void gemmTwoByTwoInEveryTransposeAndAccumulate() {
        float[] a = {1, 2, 3, 4};     // [[1, 2], [3, 4]]
        float[] b = {5, 6, 7, 8};     // [[5, 6], [7, 8]]
        float[] c = new float[4];
        k.gemm(false, false, 2, 2, 2, a, 0, 2, b, 0, 2, c, 0, 2, false);
        assertArrayEquals(new float[] {19, 22, 43, 50}, c);
        k.gemm(true, false, 2, 2, 2, a, 0, 2, b, 0, 2, c, 0, 2, false);
        assertArrayEquals(new float[] {26, 30, 38, 44}, c);
        k.gemm(false, true, 2, 2, 2, a, 0, 2, b, 0, 2, c, 0, 2, false);
        assertArrayEquals(new float[] {17, 23, 39, 53}, c);
        k.gemm(true, true, 2, 2, 2, a, 0, 2, b, 0, 2, c, 0, 2, false);
        assertArrayEquals(new float[] {23, 31, 34, 46}, c);
        k.gemm(true, true, 2, 2, 2, a, 0, 2, b, 0, 2, c, 0, 2, true);
        assertArrayEquals(new float[] {46, 62, 68, 92}, c);
    }

    @Test
    void gemmHonoursOffsetsAndStrides() {
        // A = [[1, 2]] at offset 1; B = [[3], [4]] with row stride 2 at offset 1; C at offset 2 with stride 3.
        float[] a = {9, 1, 2};
        float[] b = {9, 3, 9, 4};
        float[] c = {7, 7, 7, 7, 7};
        k.gemm(false, false, 1, 1, 2, a, 1, 2, b, 1, 2, c, 2, 3, false);
        assertArrayEquals(new float[] {7, 7, 11, 7, 7}, c);
    }

    @Test
    void convolutionIsCrossCorrelationWithoutFlip() {
        ConvGeometry g = new ConvGeometry(1, 4, 4, 1, 3, 3, 1, 1, 1, 0, 0, 2, 2);
        float[] x = new float[16];
        for (int i = 0; i < 16; i++) {
            x[i] = i + 1; // rows 1..4, 5..8, 9..12, 13..16
        }
        float[] ones = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        float[] y = new float[4];
        k.conv2d(g, x, 0, ones, 0, y, 0);
        assertArrayEquals(new float[] {54, 63, 90, 99}, y);
        // A single 1 at kernel (0, 1) picks x[oh][ow + 1]; a flipped kernel would pick x[oh + 2][ow + 1].
        float[] pick = {0, 1, 0, 0, 0, 0, 0, 0, 0};
        k.conv2d(g, x, 0, pick, 0, y, 0);
        assertArrayEquals(new float[] {2, 3, 6, 7}, y);
    }

    @Test
    void sameConvolutionPadsWithZeros() {
        ConvGeometry g = new ConvGeometry(1, 3, 3, 1, 3, 3, 1, 1, 1, 1, 1, 3, 3);
        float[] x = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        float[] w = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        float[] y = new float[9];
        k.conv2d(g, x, 0, w, 0, y, 0);
        assertArrayEquals(new float[] {4, 6, 4, 6, 9, 6, 4, 6, 4}, y);
    }

    @Test
    void convolutionMixesChannelsWithKerasKernelLayout() {
        // 1x1 kernel [1, 1, inC=2, outC=3]: y[oc] = x0 w[0][oc] + x1 w[1][oc].
        ConvGeometry g = new ConvGeometry(1, 1, 1, 2, 1, 1, 3, 1, 1, 0, 0, 1, 1);
        float[] x = {2, 3};
        float[] w = {1, 2, 3, 4, 5, 6};
        float[] y = new float[3];
        k.conv2d(g, x, 0, w, 0, y, 0);
        assertArrayEquals(new float[] {14, 19, 24}, y);
    }

    @Test
    void maxPoolTakesWindowMaximaAndRoutesGradientToTheFirstOne() {
        PoolGeometry g = new PoolGeometry(1, 4, 4, 1, 2, 2, 2, 2, 0, 0, 2, 2);
        float[] x = {
            1, 5, 2, 0,
            5, 3, 1, 1,
            0, 0, 7, 8,
            -1, 2, 9, 9};
        float[] y = new float[4];
        float[] cells = new float[4];
        k.maxPool2d(g, x, 0, y, 0, cells, 0);
        assertArrayEquals(new float[] {5, 2, 2, 9}, y);
        assertArrayEquals(new float[] {1, 0, 3, 2}, cells, "the first maximum's cell, i * poolW + j");
        float[] dx = new float[16];
        k.maxPool2dBackward(g, cells, 0, new float[] {10, 20, 30, 40}, 0, dx, 0);
        assertArrayEquals(new float[] {
            0, 10, 20, 0,
            0, 0, 0, 0,
            0, 0, 0, 0,
            0, 30, 40, 0}, dx);
    }

    @Test
    void maxPoolIgnoresPaddedCells() {
        // All inputs negative: a padded zero must never win. 3x3 input, 2x2 windows, stride 2, padding 1 on top/left.
        PoolGeometry g = new PoolGeometry(1, 3, 3, 1, 2, 2, 2, 2, 1, 1, 2, 2);
        float[] x = {-1, -2, -3, -4, -5, -6, -7, -8, -9};
        float[] y = new float[4];
        float[] cells = new float[4];
        k.maxPool2d(g, x, 0, y, 0, cells, 0);
        // Windows: {x00}, {x01, x02}, {x10, x20}, {x11, x12, x21, x22}.
        assertArrayEquals(new float[] {-1, -2, -4, -5}, y);
        // Cells count the padding (window cell 3 is x00 in the first window); none above zero: -1 - cell.
        assertArrayEquals(new float[] {-1 - 3, -1 - 2, -1 - 1, -1 - 0}, cells);
        float[] dx = new float[9];
        k.maxPool2dBackward(g, cells, 0, new float[] {10, 20, 30, 40}, 0, dx, 0);
        assertArrayEquals(new float[] {10, 20, 0, 30, 40, 0, 0, 0, 0}, dx);
        k.maxPool2dBackwardGated(g, cells, 0, new float[] {10, 20, 30, 40}, 0, BinaryFn.RELU_GRAD, 0f, null, 0,
                dx, 0);
        assertArrayEquals(new float[9], dx, "relu of negative maxima passes nothing");
    }

    @Test
    void averagePoolDividesByUnpaddedCells() {
        PoolGeometry g = new PoolGeometry(1, 3, 3, 1, 2, 2, 2, 2, 1, 1, 2, 2);
        float[] x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        float[] y = new float[4];
        k.avgPool2d(g, x, 0, y, 0);
        assertArrayEquals(new float[] {1, 2.5f, 5.5f, 7}, y, EPS);
        float[] dx = new float[9];
        k.avgPool2dBackward(g, new float[] {1, 2, 4, 8}, 0, dx, 0);
        assertArrayEquals(new float[] {1, 1, 1, 2, 2, 2, 2, 2, 2}, dx, EPS);
    }

    @Test
    void softmaxOfAKnownRow() {
        float[] x = {1, 2, 3, 1000, 1000};
        float[] y = new float[5];
        k.softmax(false, x, 0, y, 0, 1, 3);
        assertArrayEquals(new float[] {0.09003057f, 0.24472847f, 0.66524096f, 0, 0}, y, EPS);
        // Large logits must not overflow.
        k.softmax(false, x, 3, y, 3, 1, 2);
        assertArrayEquals(new float[] {0.5f, 0.5f}, new float[] {y[3], y[4]}, EPS);
        k.softmax(true, x, 0, y, 0, 1, 3);
        assertArrayEquals(new float[] {-2.4076059f, -1.4076059f, -0.4076059f}, new float[] {y[0], y[1], y[2]}, EPS);
    }

    @Test
    void softmaxBackwardFollowsTheJacobian() {
        float[] y = {0.25f, 0.75f};
        float[] dy = {1, 0};
        float[] dx = new float[2];
        // dx = y (dy - sum(dy y)) = [0.25 (1 - 0.25), 0.75 (0 - 0.25)]
        k.softmaxBackward(false, y, 0, dy, 0, dx, 0, 1, 2);
        assertArrayEquals(new float[] {0.1875f, -0.1875f}, dx, EPS);
        float[] logY = {(float) Math.log(0.25), (float) Math.log(0.75)};
        // dx = dy - exp(y) sum(dy) = [1 - 0.25, -0.75]
        k.softmaxBackward(true, logY, 0, dy, 0, dx, 0, 1, 2);
        assertArrayEquals(new float[] {0.75f, -0.75f}, dx, EPS);
    }

    @Test
    void gatherPicksOneColumnPerRowAndScatterInvertsIt() {
        float[] x = {1, 2, 3, 4, 5, 6};
        float[] index = {2, 0};
        float[] out = new float[2];
        k.gatherRows(x, 0, index, 0, out, 0, 2, 3);
        assertArrayEquals(new float[] {3, 4}, out);
        float[] dx = {9, 9, 9, 9, 9, 9};
        k.scatterRows(new float[] {7, 8}, 0, index, 0, dx, 0, 2, 3);
        assertArrayEquals(new float[] {0, 0, 7, 8, 0, 0}, dx);
    }

    @Test
    void gatherRejectsAnIndexOutOfRangeNamingRowAndValue() {
        float[] x = new float[6];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> k.gatherRows(x, 0, new float[] {1, 3}, 0, new float[2], 0, 2, 3));
        assertTrue(e.getMessage().contains("row 1"), e.getMessage());
        assertTrue(e.getMessage().contains("3.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> k.gatherRows(x, 0, new float[] {0.5f, 1}, 0, new float[2], 0, 2, 3));
        assertTrue(e.getMessage().contains("row 0") && e.getMessage().contains("0.5"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> k.scatterRows(new float[2], 0, new float[] {-1, 0}, 0, x, 0, 2, 3));
    }

    @Test
    void binaryBroadcastsABiasRowAndAColumn() {
        float[] a = {1, 2, 3, 4, 5, 6};
        float[] out = new float[6];
        k.binary(BinaryFn.ADD, 0, a, 0, new int[] {3, 1}, new float[] {10, 20, 30}, 0, new int[] {0, 1},
                out, 0, new int[] {2, 3});
        assertArrayEquals(new float[] {11, 22, 33, 14, 25, 36}, out);
        k.binary(BinaryFn.SUB, 0, a, 0, new int[] {3, 1}, new float[] {1, 2}, 0, new int[] {1, 0},
                out, 0, new int[] {2, 3});
        assertArrayEquals(new float[] {0, 1, 2, 2, 3, 4}, out);
    }

    @Test
    void reduceOverLeadingAndTrailingAxes() {
        float[] x = {1, 2, 3, 4, 5, 6};
        float[] out = new float[3];
        k.reduce(ReduceFn.SUM, x, 0, new int[] {2, 3}, new boolean[] {true, false}, out, 0);
        assertArrayEquals(new float[] {5, 7, 9}, out);
        k.reduce(ReduceFn.MAX, x, 0, new int[] {2, 3}, new boolean[] {false, true}, out, 0);
        assertArrayEquals(new float[] {3, 6}, new float[] {out[0], out[1]});
        k.reduce(ReduceFn.SUM, x, 0, new int[] {2, 3}, new boolean[] {true, true}, out, 0);
        assertEquals(21f, out[0]);
    }

    @Test
    void activationsAtKnownPoints() {
        float[] x = {-1, 0, 1, 2};
        float[] y = new float[4];
        k.unary(UnaryFn.GELU, 0, x, 0, y, 0, 4);
        assertArrayEquals(new float[] {-0.15865526f, 0, 0.8413447f, 1.9544997f}, y, EPS);
        k.unary(UnaryFn.SIGMOID, 0, x, 0, y, 0, 4);
        assertArrayEquals(new float[] {0.26894142f, 0.5f, 0.7310586f, 0.8807971f}, y, EPS);
        k.unary(UnaryFn.LEAKY_RELU, 0.1f, x, 0, y, 0, 4);
        assertArrayEquals(new float[] {-0.1f, 0, 1, 2}, y, EPS);
        k.binary(BinaryFn.GELU_GRAD, 0, x, 0, new int[] {1}, new float[] {1, 1, 1, 1}, 0, new int[] {1}, y, 0,
                new int[] {4});
        // gelu'(x) = Phi(x) + x phi(x)
        assertArrayEquals(new float[] {-0.08331547f, 0.5f, 1.0833155f, 1.0852318f}, y, EPS);
    }

    @Test
    void erfAtKnownPoints() {
        assertEquals(0.0, Erf.erf(0), 0);
        assertEquals(0.5204998778130465, Erf.erf(0.5), 1e-14);
        assertEquals(0.8427007929497149, Erf.erf(1), 1e-14);
        assertEquals(-0.9953222650189527, Erf.erf(-2), 1e-14);
        assertEquals(0.9999779095030014, Erf.erf(3), 1e-14);
        assertEquals(1.0, Erf.erf(12), 0);
        assertTrue(Double.isNaN(Erf.erf(Double.NaN)));
    }

    @Test
    void dropoutIsReproducibleAndScalesKeptValues() {
        int n = 100_000;
        float[] x = new float[n];
        java.util.Arrays.fill(x, 2f);
        float[] mask = new float[n];
        float[] y = new float[n];
        k.dropout(0.25f, 7L, x, 0, mask, 0, y, 0, n);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            assertTrue(mask[i] == 0f || mask[i] == 1f);
            assertEquals(mask[i] * 2f / 0.75f, y[i], 1e-6f);
            kept += (int) mask[i];
        }
        assertEquals(0.75, kept / (double) n, 0.01);

        float[] mask2 = new float[n];
        float[] y2 = new float[n];
        k.dropout(0.25f, 7L, x, 0, mask2, 0, y2, 0, n);
        assertArrayEquals(mask, mask2);
        assertArrayEquals(y, y2);
        k.dropout(0.25f, 8L, x, 0, mask2, 0, y2, 0, n);
        assertFalse(java.util.Arrays.equals(mask, mask2));

        k.dropout(0f, 7L, x, 0, mask2, 0, y2, 0, n);
        assertArrayEquals(x, y2);
        assertThrows(IllegalArgumentException.class, () -> k.dropout(1f, 7L, x, 0, mask, 0, y, 0, n));
    }

    @Test
    void optimizerStepsFollowTheirFormulas() {
        // Adam, one parameter, with betas exact in binary: m = 0.5 g = 1, v = 0.25 g^2 = 1, then decay 0.1 and
        // p -= lrT m / (sqrt(v) + eps).
        float[] p = {1};
        float[] m = {0};
        float[] v = {0};
        k.adamStep(p, 0, new float[] {2}, 0, m, 0, v, 0, 1, 0.5f, 0.5f, 0.75f, 1e-7f, 0.1f);
        assertEquals(1f, m[0]);
        assertEquals(1f, v[0]);
        assertEquals(0.9 - 0.5 / (1 + 1e-7), p[0], 1e-6);

        float[] q = {1};
        k.sgdStep(q, 0, new float[] {2}, 0, null, 0, 1, 0.1f, 0f, false, 0f);
        assertEquals(0.8f, q[0], EPS);
        float[] vel = {0.5f};
        k.sgdStep(q, 0, new float[] {2}, 0, vel, 0, 1, 0.1f, 0.9f, false, 0f);
        assertEquals(0.25f, vel[0], EPS);          // 0.9 * 0.5 - 0.1 * 2
        assertEquals(1.05f, q[0], EPS);
        k.sgdStep(q, 0, new float[] {2}, 0, vel, 0, 1, 0.1f, 0.9f, true, 0f);
        assertEquals(0.025f, vel[0], EPS);         // 0.9 * 0.25 - 0.2
        assertEquals(1.05f + 0.9f * 0.025f - 0.2f, q[0], EPS);

        float[] r = {1};
        float[] ms = {0};
        k.rmspropStep(r, 0, new float[] {2}, 0, ms, 0, 1, 0.1f, 0.9f, 1e-7f);
        assertEquals(0.4f, ms[0], EPS);
        assertEquals(1 - 0.2 / Math.sqrt(0.4 + 1e-7), r[0], 1e-6);
    }

    @Test
    void transposeSwapsRowsAndColumnsOfEachMatrix() {
        float[] x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        float[] y = new float[12];
        k.transpose(x, 0, y, 0, 2, 2, 3);
        assertArrayEquals(new float[] {1, 4, 2, 5, 3, 6, 7, 10, 8, 11, 9, 12}, y);
    }
}
