package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The batch normalization kernels: the vector backend (split over the pool) gives the scalar backend's bits with one
 * thread and with two, for row counts that end a block early, and the statistics are the float nearest to the
 * float64 mean and variance.
 */
class BatchNormKernelsTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final Kernels VECTOR = new VectorKernels();

    /**
     * The four kernels' outputs, concatenated: statistics, y, param sums, dx (training), dx (inference); then the
     * fused forms: y with relu and with leaky relu (slope 0.1) applied (activations whose vector and scalar forms
     * agree), param sums and dx with dy gated by relu's output {@code y}; then param sums and dx with dy gated by
     * relu of the normalization recomputed from {@code x} (the "under relu" forms).
     */
    private static float[] all(Kernels k, float[] x, float[] dy, float[] gamma, float[] beta, int rows, int c) {
        int n = rows * c;
        float[] out = new float[8 * c + 7 * n];
        int f = 4 * c + 3 * n;
        k.batchNormStatistics(x, 0, rows, c, out, 0);
        k.batchNorm(1e-3f, x, 0, out, 0, gamma, 0, beta, 0, UnaryFn.RELU, 0f, out, f, rows, c);
        k.batchNorm(1e-3f, x, 0, out, 0, gamma, 0, beta, 0, UnaryFn.LEAKY_RELU, 0.1f, out, f + n, rows, c);
        k.batchNormParamGrad(1e-3f, dy, 0, out, f, x, 0, out, 0, out, f + 2 * n, rows, c);
        k.batchNormGrad(1e-3f, true, dy, 0, out, f, x, 0, out, 0, gamma, 0, out, f + 2 * n, out, f + 2 * n + 2 * c,
                rows, c);
        k.batchNormStatistics(x, 0, rows, c, out, 0);
        k.batchNorm(1e-3f, x, 0, out, 0, gamma, 0, beta, 0, null, 0f, out, 4 * c, rows, c);
        k.batchNormParamGrad(1e-3f, dy, 0, null, 0, x, 0, out, 0, out, 2 * c, rows, c);
        k.batchNormGrad(1e-3f, true, dy, 0, null, 0, x, 0, out, 0, gamma, 0, out, 2 * c, out, 4 * c + n, rows, c);
        k.batchNormGrad(1e-3f, false, dy, 0, null, 0, x, 0, out, 0, gamma, 0, out, 2 * c, out, 4 * c + 2 * n, rows,
                c);
        int u = 6 * c + 6 * n;
        k.batchNormParamGradUnderRelu(1e-3f, dy, 0, x, 0, out, 0, gamma, 0, beta, 0, out, u, rows, c);
        k.batchNormGradUnderRelu(1e-3f, true, dy, 0, x, 0, out, 0, gamma, 0, beta, 0, out, u, out, u + 2 * c, rows,
                c);
        return out;
    }

    @Test
    void vectorGivesTheScalarBitsWithAnyBudget() {
        Random random = new Random(5);
        for (int[] size : new int[][] {{3000, 24}, {6272, 16}, {257, 5}, {1, 3}, {300, 40}, {513, 64}, {2, 32},
                {40, 1040}}) {
            int rows = size[0];
            int c = size[1];
            float[] x = uniform(random, rows * c, 2f, 4f);
            float[] dy = uniform(random, rows * c, -1f, 1f);
            float[] gamma = uniform(random, c, 0.5f, 1.5f);
            float[] beta = uniform(random, c, -0.5f, 0.5f);
            float[] expected = all(SCALAR, x, dy, gamma, beta, rows, c);
            float[] fused = all(SCALAR, x, dy, gamma, beta, rows, c);
            assertGatedEqualsUnfused(fused, x, dy, gamma, beta, rows, c);
            withBudgets(() -> assertArrayEquals(expected, all(VECTOR, x, dy, gamma, beta, rows, c),
                    rows + "x" + c));
        }
    }

    /** The fused forms give what the separate relu, leaky relu and relu-gradient kernels and the unfused ones give. */
    private static void assertGatedEqualsUnfused(float[] all, float[] x, float[] dy, float[] gamma, float[] beta,
                                                 int rows, int c) {
        int n = rows * c;
        int f = 4 * c + 3 * n;
        float[] y = java.util.Arrays.copyOfRange(all, 4 * c, 4 * c + n);
        float[] relu = new float[n];
        float[] leaky = new float[n];
        SCALAR.unary(UnaryFn.RELU, 0f, y, 0, relu, 0, n);
        SCALAR.unary(UnaryFn.LEAKY_RELU, 0.1f, y, 0, leaky, 0, n);
        assertArrayEquals(relu, java.util.Arrays.copyOfRange(all, f, f + n), "batch norm + relu");
        assertArrayEquals(leaky, java.util.Arrays.copyOfRange(all, f + n, f + 2 * n), "batch norm + leaky relu");
        float[] gated = new float[n];
        for (int i = 0; i < n; i++) {
            gated[i] = relu[i] > 0 ? dy[i] : 0f;
        }
        float[] unfused = all(SCALAR, x, gated, gamma, beta, rows, c);
        assertArrayEquals(java.util.Arrays.copyOfRange(unfused, 2 * c, 4 * c),
                java.util.Arrays.copyOfRange(all, f + 2 * n, f + 2 * n + 2 * c), "gated parameter sums");
        assertArrayEquals(java.util.Arrays.copyOfRange(unfused, 4 * c + n, 4 * c + 2 * n),
                java.util.Arrays.copyOfRange(all, f + 2 * n + 2 * c, f + 3 * n + 2 * c), "gated input gradient");
        int u = 6 * c + 6 * n;
        assertArrayEquals(java.util.Arrays.copyOfRange(all, f + 2 * n, f + 2 * n + 2 * c),
                java.util.Arrays.copyOfRange(all, u, u + 2 * c), "parameter sums under relu, gate recomputed");
        assertArrayEquals(java.util.Arrays.copyOfRange(all, f + 2 * n + 2 * c, f + 3 * n + 2 * c),
                java.util.Arrays.copyOfRange(all, u + 2 * c, u + 2 * c + n), "input gradient under relu, gate recomputed");
    }

    /**
     * A batch normalization with a binary op and an activation after it (a residual add and relu, either operand
     * first; a subtraction with the normalized values second, so the operand order shows) gives the bits of
     * batchNorm, then binaryActivation, on both backends and at any thread budget; the vector backend gives the
     * scalar bits.
     */
    @Test
    void normalizedBinaryGivesTheUnfusedBits() {
        Random random = new Random(7);
        for (int[] size : new int[][] {{3000, 24}, {6272, 16}, {257, 5}, {1, 3}, {513, 64}}) {
            int rows = size[0];
            int c = size[1];
            int n = rows * c;
            float[] x = uniform(random, n, 2f, 4f);
            float[] other = uniform(random, n + 3, -2f, 2f);
            float[] gamma = uniform(random, c, 0.5f, 1.5f);
            float[] beta = uniform(random, c, -0.5f, 0.5f);
            for (Kernels k : new Kernels[] {SCALAR, VECTOR}) {
                // Add with the normalized values first and second (fused into one pass where the vectors cover
                // every channel), and subtract with them second.
                for (int variant = 0; variant < 3; variant++) {
                    BinaryFn fn = variant < 2 ? BinaryFn.ADD : BinaryFn.SUB;
                    boolean normalizedFirst = variant == 0;
                    float[] stats = new float[2 * c];
                    k.batchNormStatistics(x, 0, rows, c, stats, 0);
                    float[] y = new float[n];
                    k.batchNorm(1e-3f, x, 0, stats, 0, gamma, 0, beta, 0, null, 0f, y, 0, rows, c);
                    float[] expected = new float[n];
                    if (normalizedFirst) {
                        k.binaryActivation(fn, 0f, y, 0, other, 3, UnaryFn.RELU, 0f, expected, 0, n);
                    } else {
                        k.binaryActivation(fn, 0f, other, 3, y, 0, UnaryFn.RELU, 0f, expected, 0, n);
                    }
                    String what = k.name() + " " + fn + " " + rows + "x" + c;
                    withBudgets(() -> {
                        float[] fused = new float[n + 1];
                        k.batchNormBinary(1e-3f, x, 0, stats, 0, gamma, 0, beta, 0, fn, 0f, other, 3,
                                normalizedFirst, UnaryFn.RELU, 0f, fused, 1, rows, c);
                        assertArrayEquals(expected, java.util.Arrays.copyOfRange(fused, 1, n + 1), what);
                    });
                }
            }
        }
    }

    @Test
    void statisticsAreTheNearestFloats() {
        Random random = new Random(6);
        int rows = 6272;
        int c = 16;
        float[] x = uniform(random, rows * c, 2f, 4f);
        float[] stats = new float[2 * c];
        VECTOR.batchNormStatistics(x, 0, rows, c, stats, 0);
        for (int j = 0; j < c; j++) {
            double mean = 0;
            for (int r = 0; r < rows; r++) {
                mean += x[r * c + j];
            }
            mean /= rows;
            double variance = 0;
            for (int r = 0; r < rows; r++) {
                variance += (x[r * c + j] - mean) * (x[r * c + j] - mean);
            }
            assertEquals((float) mean, stats[j], "mean of channel " + j);
            assertEquals((float) (variance / rows), stats[c + j], "variance of channel " + j);
        }
    }
}
