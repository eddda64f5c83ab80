package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.brisk.backend.Kernels;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The kernels of sequence and attention models (batched gemm, permutation of axes, softmax along any axis, layer
 * normalization): the vector backend against the scalar reference, and the reference against plain loops, with
 * non-zero offsets, sizes that are not multiples of the vector length, and one and two threads.
 */
class SequenceKernelsTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final Kernels VECTOR = new VectorKernels();
    private final Random random = new Random(20261205);

    @Test
    void batchedGemmMatchesPerEntryProductsForEveryTransposeAndBroadcast() {
        int[][] sizes = {{1, 3, 4, 5}, {8, 7, 9, 33}, {12, 16, 16, 32}, {3, 40, 70, 20}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                for (int flags = 0; flags < 16; flags++) {
                    checkBatchedGemm(s[0], s[1], s[2], s[3], (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0,
                            (flags & 8) != 0);
                }
            }
        });
    }

    private void checkBatchedGemm(int batch, int m, int n, int k, boolean ta, boolean tb, boolean shareA,
                                  boolean shareB) {
        int aStride = shareA ? 0 : m * k;
        int bStride = shareB ? 0 : k * n;
        float[] a = uniform(random, 3 + (shareA ? 1 : batch) * m * k, -1, 1);
        float[] b = uniform(random, 5 + (shareB ? 1 : batch) * k * n, -1, 1);
        float[] expected = new float[2 + batch * m * n];
        for (int e = 0; e < batch; e++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int p = 0; p < k; p++) {
                        float av = ta ? a[3 + e * aStride + p * m + i] : a[3 + e * aStride + i * k + p];
                        float bv = tb ? b[5 + e * bStride + j * k + p] : b[5 + e * bStride + p * n + j];
                        s += (double) av * bv;
                    }
                    expected[2 + e * m * n + i * n + j] = (float) s;
                }
            }
        }
        String what = "batch " + batch + " " + m + "x" + n + "x" + k + " ta=" + ta + " tb=" + tb + " shareA="
                + shareA + " shareB=" + shareB;
        for (Kernels kernels : new Kernels[] {SCALAR, VECTOR}) {
            float[] c = new float[expected.length];
            kernels.batchedGemm(ta, tb, batch, m, n, k, a, 3, aStride, b, 5, bStride, c, 2);
            assertClose(kernels.name() + " " + what, expected, c, 1e-5f, 1e-5f);
        }
    }

    @Test
    void permuteMatchesIndexArithmeticForEveryOrderOfFourAxes() {
        int[] dims = {3, 5, 2, 17};
        int size = 3 * 5 * 2 * 17;
        float[] x = uniform(random, 4 + size, -1, 1);
        int[][] perms = permutations(4);
        withBudgets(() -> {
            for (int[] perm : perms) {
                float[] expected = new float[1 + size];
                int[] outDims = {dims[perm[0]], dims[perm[1]], dims[perm[2]], dims[perm[3]]};
                int[] in = new int[4];
                int o = 0;
                for (int i0 = 0; i0 < outDims[0]; i0++) {
                    for (int i1 = 0; i1 < outDims[1]; i1++) {
                        for (int i2 = 0; i2 < outDims[2]; i2++) {
                            for (int i3 = 0; i3 < outDims[3]; i3++) {
                                in[perm[0]] = i0;
                                in[perm[1]] = i1;
                                in[perm[2]] = i2;
                                in[perm[3]] = i3;
                                expected[1 + o++] = x[4 + ((in[0] * dims[1] + in[1]) * dims[2] + in[2]) * dims[3]
                                        + in[3]];
                            }
                        }
                    }
                }
                for (Kernels kernels : new Kernels[] {SCALAR, VECTOR}) {
                    float[] y = new float[1 + size];
                    kernels.permute(x, 4, dims, perm, y, 1);
                    assertArrayEquals(expected, y, kernels.name() + " " + java.util.Arrays.toString(perm));
                }
            }
        });
    }

    @Test
    void largePermuteSplitOverThreadsGivesTheSameElements() {
        int[] dims = {8, 64, 4, 32};
        int[] perm = {0, 2, 1, 3};
        int size = 8 * 64 * 4 * 32;
        float[] x = uniform(random, size, -1, 1);
        float[] expected = new float[size];
        SCALAR.permute(x, 0, dims, perm, expected, 0);
        withBudgets(() -> {
            float[] y = new float[size];
            VECTOR.permute(x, 0, dims, perm, y, 0);
            assertArrayEquals(expected, y);
        });
    }

    private static int[][] permutations(int n) {
        java.util.List<int[]> out = new java.util.ArrayList<>();
        permute(new int[n], new boolean[n], 0, out);
        return out.toArray(new int[0][]);
    }

    private static void permute(int[] prefix, boolean[] used, int at, java.util.List<int[]> out) {
        if (at == prefix.length) {
            out.add(prefix.clone());
            return;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (!used[i]) {
                used[i] = true;
                prefix[at] = i;
                permute(prefix, used, at + 1, out);
                used[i] = false;
            }
        }
    }

    @Test
    void softmaxAlongAnAxisMatchesTheRowSoftmaxOfTheTransposedTensor() {
        int[][] shapes = {{3, 7, 5}, {2, 9, 35}, {40, 4, 64}, {1, 1, 3}};
        withBudgets(() -> {
            for (int[] s : shapes) {
                int outer = s[0];
                int length = s[1];
                int inner = s[2];
                int size = outer * length * inner;
                float[] x = uniform(random, 2 + size, -4, 4);
                float[] dy = uniform(random, size, -1, 1);
                for (boolean log : new boolean[] {false, true}) {
                    // The reference: each column copied out as a row, softmax'd by the row kernel, copied back.
                    float[] expected = new float[3 + size];
                    float[] row = new float[length];
                    float[] out = new float[length];
                    for (int o = 0; o < outer; o++) {
                        for (int i = 0; i < inner; i++) {
                            for (int j = 0; j < length; j++) {
                                row[j] = x[2 + (o * length + j) * inner + i];
                            }
                            SCALAR.softmax(log, row, 0, out, 0, 1, length);
                            for (int j = 0; j < length; j++) {
                                expected[3 + (o * length + j) * inner + i] = out[j];
                            }
                        }
                    }
                    String what = java.util.Arrays.toString(s) + " log=" + log;
                    float[] y = new float[3 + size];
                    SCALAR.softmaxAlongAxis(log, x, 2, y, 3, outer, length, inner);
                    assertArrayEquals(expected, y, "scalar " + what);
                    float[] yv = new float[3 + size];
                    VECTOR.softmaxAlongAxis(log, x, 2, yv, 3, outer, length, inner);
                    assertClose("vector " + what, expected, yv, 1e-5f, 1e-6f);

                    float[] dx = new float[size + 1];
                    float[] dxv = new float[size + 1];
                    SCALAR.softmaxAlongAxisBackward(log, y, 3, dy, 0, dx, 1, outer, length, inner);
                    VECTOR.softmaxAlongAxisBackward(log, y, 3, dy, 0, dxv, 1, outer, length, inner);
                    assertClose("vector backward " + what, dx, dxv, 1e-4f, 1e-5f);
                }
            }
        });
    }

    @Test
    void layerNormKeepsItsDigitsWhenTheMeanIsLargeAgainstTheSpread() {
        // The rows are written in float: x - mean as (x - hi) - lo. Subtracting the mean rounded to one float would
        // be off by up to half an ulp of 1000 (3e-5) times 1 / sd (1.7) here.
        int rows = 40;
        int cols = 129;
        float eps = 1e-3f;
        float[] x = uniform(random, rows * cols, 999, 1001);
        float[] gamma = uniform(random, cols, 0.5f, 1.5f);
        float[] beta = uniform(random, cols, -1, 1);
        float[] dy = uniform(random, rows * cols, -1, 1);
        float[] expected = new float[rows * cols];
        float[] dxExpected = new float[rows * cols];
        for (int r = 0; r < rows; r++) {
            double mean = 0;
            for (int c = 0; c < cols; c++) {
                mean += x[r * cols + c];
            }
            mean /= cols;
            double var = 0;
            for (int c = 0; c < cols; c++) {
                var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
            }
            double inv = 1 / Math.sqrt(var / cols + eps);
            double sg = 0;
            double sgx = 0;
            for (int c = 0; c < cols; c++) {
                double xhat = (x[r * cols + c] - mean) * inv;
                expected[r * cols + c] = (float) (xhat * gamma[c] + beta[c]);
                sg += dy[r * cols + c] * (double) gamma[c];
                sgx += dy[r * cols + c] * (double) gamma[c] * xhat;
            }
            for (int c = 0; c < cols; c++) {
                double xhat = (x[r * cols + c] - mean) * inv;
                double g = dy[r * cols + c] * (double) gamma[c];
                dxExpected[r * cols + c] = (float) (inv * (g - sg / cols - xhat * sgx / cols));
            }
        }
        for (Kernels k : new Kernels[] {SCALAR, VECTOR}) {
            float[] y = new float[rows * cols];
            k.layerNorm(eps, x, 0, gamma, 0, beta, 0, y, 0, rows, cols);
            assertClose(k.name() + " layerNorm, mean 1000", expected, y, 2e-6f, 2e-6f);
            float[] dx = new float[rows * cols];
            k.layerNormGrad(eps, dy, 0, x, 0, gamma, 0, dx, 0, rows, cols);
            assertClose(k.name() + " layerNormGrad, mean 1000", dxExpected, dx, 1e-5f, 1e-5f);
        }
    }

    @Test
    void layerNormMatchesADoubleReferenceAndTheVectorBackendGivesTheSameBits() {
        int[][] shapes = {{1, 1}, {5, 3}, {7, 37}, {600, 64}, {300, 129}};
        withBudgets(() -> {
            for (int[] s : shapes) {
                int rows = s[0];
                int cols = s[1];
                float eps = 1e-3f;
                float[] x = uniform(random, 1 + rows * cols, 1, 5);
                float[] gamma = uniform(random, cols + 2, 0.5f, 1.5f);
                float[] beta = uniform(random, cols, -1, 1);
                float[] dy = uniform(random, rows * cols + 4, -1, 1);
                float[] expected = new float[rows * cols];
                float[] dxExpected = new float[rows * cols];
                double[] sums = new double[2 * cols];
                for (int r = 0; r < rows; r++) {
                    double mean = 0;
                    for (int c = 0; c < cols; c++) {
                        mean += x[1 + r * cols + c];
                    }
                    mean /= cols;
                    double var = 0;
                    for (int c = 0; c < cols; c++) {
                        double d = x[1 + r * cols + c] - mean;
                        var += d * d;
                    }
                    double inv = 1 / Math.sqrt(var / cols + eps);
                    double sg = 0;
                    double sgx = 0;
                    for (int c = 0; c < cols; c++) {
                        double xhat = (x[1 + r * cols + c] - mean) * inv;
                        expected[r * cols + c] = (float) (xhat * gamma[2 + c] + beta[c]);
                        double g = dy[4 + r * cols + c] * (double) gamma[2 + c];
                        sg += g;
                        sgx += g * xhat;
                        sums[c] += dy[4 + r * cols + c];
                        sums[cols + c] += dy[4 + r * cols + c] * xhat;
                    }
                    for (int c = 0; c < cols; c++) {
                        double xhat = (x[1 + r * cols + c] - mean) * inv;
                        double g = dy[4 + r * cols + c] * (double) gamma[2 + c];
                        dxExpected[r * cols + c] = (float) (inv * (g - sg / cols - xhat * sgx / cols));
                    }
                }
                float[] sumsExpected = new float[2 * cols];
                for (int c = 0; c < 2 * cols; c++) {
                    sumsExpected[c] = (float) sums[c];
                }
                String what = rows + "x" + cols;
                float[][] results = new float[2][];
                float[][] grads = new float[2][];
                float[][] params = new float[2][];
                Kernels[] backends = {SCALAR, VECTOR};
                for (int b = 0; b < 2; b++) {
                    Kernels k = backends[b];
                    results[b] = new float[rows * cols];
                    k.layerNorm(eps, x, 1, gamma, 2, beta, 0, results[b], 0, rows, cols);
                    assertClose(k.name() + " layerNorm " + what, expected, results[b], 1e-6f, 1e-6f);
                    grads[b] = new float[rows * cols];
                    k.layerNormGrad(eps, dy, 4, x, 1, gamma, 2, grads[b], 0, rows, cols);
                    assertClose(k.name() + " layerNormGrad " + what, dxExpected, grads[b], 1e-5f, 1e-5f);
                    params[b] = new float[2 * cols];
                    k.layerNormParamGrad(eps, dy, 4, x, 1, params[b], 0, rows, cols);
                    assertClose(k.name() + " layerNormParamGrad " + what, sumsExpected, params[b], 1e-5f, 1e-5f);
                }
                assertArrayEquals(results[0], results[1], what);
                assertArrayEquals(grads[0], grads[1], what);
                assertArrayEquals(params[0], params[1], what);
            }
        });
    }
}
