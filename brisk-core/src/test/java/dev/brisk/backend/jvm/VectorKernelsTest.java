package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.levels;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every kernel of the vector backend against the scalar reference, on random inputs with sizes that are not
 * multiples of the vector length, non-zero offsets, and one and two threads. Whole arrays are compared, so a
 * kernel that writes outside its window fails too.
 */
class VectorKernelsTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final Kernels VECTOR = new VectorKernels();
    private final Random random = new Random(20240611);

    // ---------------------------------------------------------------- gemm

    @Test
    void gemmMatchesReferenceForEveryTransposeAndAccumulate() {
        int[][] sizes = {{1, 1, 1}, {5, 3, 2}, {6, 32, 7}, {7, 33, 300}, {37, 45, 29}, {100, 70, 5},
            {13, 17, 641}, {130, 150, 70}, {3, 200, 90}, {0, 4, 5}, {4, 5, 0}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                for (int flags = 0; flags < 8; flags++) {
                    checkGemm(s[0], s[1], s[2], (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0);
                }
            }
        });
    }

    @Test
    void transposedBGivesTheBitsOfTheSameBStoredTransposed() {
        // Packing absorbs the transpose, so op(B) read either way must reach the kernel as the same panels.
        int[][] sizes = {{13, 150, 70}, {40, 64, 8}, {128, 96, 257}, {7, 33, 300}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                int m = s[0];
                int n = s[1];
                int k = s[2];
                float[] a = uniform(random, m * k, -1, 1);
                float[] bt = uniform(random, 3 + n * (k + 5), -1, 1);
                float[] b = new float[k * n];
                for (int j = 0; j < n; j++) {
                    for (int p = 0; p < k; p++) {
                        b[p * n + j] = bt[3 + j * (k + 5) + p];
                    }
                }
                float[] viaTranspose = new float[m * n];
                float[] stored = new float[m * n];
                VECTOR.gemm(false, true, m, n, k, a, 0, k, bt, 3, k + 5, viaTranspose, 0, n, false);
                VECTOR.gemm(false, false, m, n, k, a, 0, k, b, 0, n, stored, 0, n, false);
                assertArrayEquals(stored, viaTranspose, m + "x" + n + "x" + k);
            }
        });
    }

    @Test
    void transposedAGivesTheBitsOfTheSameAStoredRowMajor() {
        // A row-major A goes through the kernel with constant strides, a transposed one through the general
        // kernel; the last, partial sliver is packed row-major for the former. Each element must get the same sums
        // either way, including the edge sliver, a partial panel and several depth blocks.
        int[][] sizes = {{130, 150, 70}, {37, 64, 341}, {6, 33, 17}, {100, 40, 5}, {32, 288, 225}, {13, 32, 50}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                int m = s[0];
                int n = s[1];
                int k = s[2];
                int lda = m + 3;
                float[] at = uniform(random, 5 + k * lda, -1, 1);
                float[] a = new float[m * k];
                for (int i = 0; i < m; i++) {
                    for (int p = 0; p < k; p++) {
                        a[i * k + p] = at[5 + p * lda + i];
                    }
                }
                float[] b = uniform(random, k * n, -1, 1);
                for (boolean accumulate : new boolean[] {false, true}) {
                    float[] viaTranspose = uniform(random, m * n, -1, 1);
                    float[] stored = viaTranspose.clone();
                    VECTOR.gemm(true, false, m, n, k, at, 5, lda, b, 0, n, viaTranspose, 0, n, accumulate);
                    VECTOR.gemm(false, false, m, n, k, a, 0, k, b, 0, n, stored, 0, n, accumulate);
                    assertArrayEquals(stored, viaTranspose, m + "x" + n + "x" + k + " accumulate=" + accumulate);
                }
            }
        });
    }

    @Test
    void narrowResultsGiveTheBitsOfTheSameColumnsOfAWideOne() {
        // A C at most one vector wide has its own tile; each element must still get the wide path's sums.
        int wide = 40;
        int[][] sizes = {{128, 10, 512}, {512, 10, 128}, {13, 7, 700}, {6, 1, 3}, {31, 16, 33}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                int m = s[0];
                int n = s[1];
                int k = s[2];
                for (int flags = 0; flags < 16; flags++) {
                    boolean transA = (flags & 1) != 0;
                    boolean transB = (flags & 2) != 0;
                    boolean accumulate = (flags & 4) != 0;
                    boolean epilogue = (flags & 8) != 0;
                    float[] a = uniform(random, m * k, -1, 1);
                    float[] bWide = uniform(random, k * wide, -1, 1);
                    float[] b = new float[k * n];
                    for (int p = 0; p < k; p++) {
                        for (int j = 0; j < n; j++) {
                            // op(B) of the narrow product is the first n columns of the wide one's
                            int src = transB ? j * k + p : p * wide + j;
                            b[transB ? j * k + p : p * n + j] = bWide[src];
                        }
                    }
                    float[] bias = uniform(random, wide, -1, 1);
                    float[] cWide = uniform(random, m * wide, -1, 1);
                    float[] c = new float[m * n];
                    for (int i = 0; i < m; i++) {
                        System.arraycopy(cWide, i * wide, c, i * n, n);
                    }
                    int lda = transA ? m : k;
                    if (epilogue) {
                        VECTOR.gemmBiasActivation(transA, transB, m, wide, k, a, 0, lda, bWide, 0, transB ? k : wide,
                                bias, 0, UnaryFn.RELU, 0f, cWide, 0, wide);
                        VECTOR.gemmBiasActivation(transA, transB, m, n, k, a, 0, lda, b, 0, transB ? k : n, bias, 0,
                                UnaryFn.RELU, 0f, c, 0, n);
                    } else {
                        VECTOR.gemm(transA, transB, m, wide, k, a, 0, lda, bWide, 0, transB ? k : wide, cWide, 0,
                                wide, accumulate);
                        VECTOR.gemm(transA, transB, m, n, k, a, 0, lda, b, 0, transB ? k : n, c, 0, n, accumulate);
                    }
                    for (int i = 0; i < m; i++) {
                        for (int j = 0; j < n; j++) {
                            assertEquals(cWide[i * wide + j], c[i * n + j], m + "x" + n + "x" + k + " flags " + flags
                                    + " at (" + i + ", " + j + ")");
                        }
                    }
                }
            }
        });
    }

    @Test
    void eightByEightBlocksTransposeExactly() {
        checkTranspose(8, 5, 19, 2, 11, Transpose8::block);
    }

    @Test
    void sixteenBySixteenBlocksTransposeExactly() {
        checkTranspose(16, 3, 37, 4, 21, Transpose16::block);
    }

    /** A square block transpose, {@code size} rows from offset {@code si} of a random source, against a loop. */
    private void checkTranspose(int size, int si, int srcStride, int di, int dstStride, BlockTranspose transpose) {
        float[] src = uniform(random, si + size * srcStride, -1, 1);
        float[] dst = uniform(random, di + size * dstStride, -1, 1);
        float[] expected = dst.clone();
        for (int i = 0; i < size; i++) {
            for (int p = 0; p < size; p++) {
                expected[di + p * dstStride + i] = src[si + i * srcStride + p];
            }
        }
        transpose.block(src, si, srcStride, dst, di, dstStride);
        assertArrayEquals(expected, dst);
    }

    /** {@link Transpose8#block} or {@link Transpose16#block}. */
    @FunctionalInterface
    private interface BlockTranspose {
        void block(float[] src, int si, int srcStride, float[] dst, int di, int dstStride);
    }

    private void checkGemm(int m, int n, int k, boolean transA, boolean transB, boolean accumulate) {
        int lda = (transA ? m : k) + 3;
        int ldb = (transB ? k : n) + 2;
        int ldc = n + 1;
        int aOff = 5;
        int bOff = 7;
        int cOff = 11;
        float[] a = uniform(random, aOff + (transA ? k : m) * lda, -1, 1);
        float[] b = uniform(random, bOff + (transB ? n : k) * ldb, -1, 1);
        float[] expected = uniform(random, cOff + m * ldc, -1, 1);
        float[] actual = expected.clone();
        SCALAR.gemm(transA, transB, m, n, k, a, aOff, lda, b, bOff, ldb, expected, cOff, ldc, accumulate);
        VECTOR.gemm(transA, transB, m, n, k, a, aOff, lda, b, bOff, ldb, actual, cOff, ldc, accumulate);
        assertClose("gemm " + m + "x" + n + "x" + k + " transA=" + transA + " transB=" + transB + " accumulate="
                + accumulate, expected, actual, 1e-5f, 1e-6f * k + 1e-6f);
    }

    // ---------------------------------------------------------------- elementwise

    @Test
    void unaryMatchesReference() {
        withBudgets(() -> {
            for (UnaryFn fn : UnaryFn.values()) {
                for (int n : new int[] {1, 15, 16, 17, 1003, 70001}) {
                    float[] x = unaryInput(fn, 3 + n);
                    float alpha = switch (fn) {
                        case LEAKY_RELU -> 0.2f;
                        case SCALE -> 1.7f;
                        case ADD_SCALAR -> -0.3f;
                        case CLIP_PROB -> 1e-7f;
                        default -> 0f;
                    };
                    float[] expected = new float[5 + n + 2];
                    float[] actual = new float[5 + n + 2];
                    SCALAR.unary(fn, alpha, x, 3, expected, 5, n);
                    VECTOR.unary(fn, alpha, x, 3, actual, 5, n);
                    assertClose(fn + " n=" + n, expected, actual, 2e-6f, 1e-6f);
                    // In place.
                    float[] inPlace = x.clone();
                    VECTOR.unary(fn, alpha, inPlace, 3, inPlace, 3, n);
                    float[] shifted = x.clone();
                    System.arraycopy(expected, 5, shifted, 3, n);
                    assertClose(fn + " in place n=" + n, shifted, inPlace, 2e-6f, 1e-6f);
                }
            }
        });
    }

    private float[] unaryInput(UnaryFn fn, int n) {
        float[] x = switch (fn) {
            case LOG, SQRT, RSQRT -> uniform(random, n, 0.01f, 10f);
            case EXP -> uniform(random, n, -20f, 20f);
            case CLIP_PROB -> uniform(random, n, -0.5f, 1.5f);
            default -> uniform(random, n, -6f, 6f);
        };
        if (fn == UnaryFn.RECIPROCAL) {
            for (int i = 0; i < n; i++) {
                x[i] += Math.copySign(0.1f, x[i]);
            }
        }
        if (fn == UnaryFn.NON_FINITE) {
            for (int i = 0; i < n; i += 7) {
                x[i] = i % 3 == 0 ? Float.NaN : i % 3 == 1 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
            }
        }
        return x;
    }

    /** One broadcast case: the output shape and each input's strides and length. */
    private record Case(String name, int[] shape, int[] aStrides, int aSize, int[] bStrides, int bSize) {
    }

    @Test
    void binaryMatchesReferenceOnEveryBroadcastPattern() {
        Case[] cases = {
            new Case("same shape", new int[] {3, 37}, new int[] {37, 1}, 111, new int[] {37, 1}, 111),
            new Case("bias row", new int[] {5, 19}, new int[] {19, 1}, 95, new int[] {0, 1}, 19),
            new Case("scalar b", new int[] {4, 21}, new int[] {21, 1}, 84, new int[] {0, 0}, 1),
            new Case("scalar a", new int[] {33}, new int[] {0}, 1, new int[] {1}, 33),
            new Case("column b", new int[] {7, 11}, new int[] {11, 1}, 77, new int[] {1, 0}, 7),
            new Case("row a", new int[] {6, 18}, new int[] {0, 1}, 18, new int[] {18, 1}, 108),
            new Case("middle axis", new int[] {2, 3, 17}, new int[] {51, 17, 1}, 102, new int[] {0, 1, 0}, 3),
            new Case("size-1 axes", new int[] {1, 4, 1, 9}, new int[] {36, 9, 9, 1}, 36, new int[] {0, 0, 0, 1}, 9),
            new Case("transposed a", new int[] {6, 9}, new int[] {1, 6}, 54, new int[] {9, 1}, 54),
            new Case("rank 0", new int[] {}, new int[] {}, 1, new int[] {}, 1),
            new Case("empty", new int[] {3, 0}, new int[] {0, 1}, 1, new int[] {0, 1}, 1),
            new Case("long row", new int[] {70001}, new int[] {1}, 70001, new int[] {1}, 70001),
            new Case("many rows", new int[] {300, 513}, new int[] {513, 1}, 153900, new int[] {0, 1}, 513),
        };
        withBudgets(() -> {
            for (BinaryFn fn : BinaryFn.values()) {
                for (Case c : cases) {
                    checkBinary(fn, c);
                }
            }
        });
    }

    private void checkBinary(BinaryFn fn, Case c) {
        int n = 1;
        for (int d : c.shape()) {
            n *= d;
        }
        float alpha = fn == BinaryFn.CLIP_PROB_GRAD ? 0.1f : 0.2f;
        float[] a = uniform(random, 2 + c.aSize(), fn == BinaryFn.CLIP_PROB_GRAD ? -0.5f : -3f, 1.5f);
        float[] b = uniform(random, 4 + c.bSize(), 0.5f, 2f);
        if (fn != BinaryFn.DIV) {
            for (int i = 0; i < b.length; i += 2) {
                b[i] = -b[i];
            }
        }
        if (fn == BinaryFn.MAX || fn == BinaryFn.MIN || fn == BinaryFn.GREATER) {
            System.arraycopy(b, 4, a, 2, Math.min(c.aSize(), c.bSize()) / 2); // some equal pairs
        }
        float[] expected = new float[3 + n];
        float[] actual = new float[3 + n];
        SCALAR.binary(fn, alpha, a, 2, c.aStrides(), b, 4, c.bStrides(), expected, 3, c.shape());
        VECTOR.binary(fn, alpha, a, 2, c.aStrides(), b, 4, c.bStrides(), actual, 3, c.shape());
        assertClose(fn + " " + c.name(), expected, actual, 2e-6f, 1e-6f);
        if (c.name().equals("same shape") || c.name().equals("bias row")) {
            // out may alias a when a is not broadcast.
            float[] aliased = a.clone();
            VECTOR.binary(fn, alpha, aliased, 2, c.aStrides(), b, 4, c.bStrides(), aliased, 2, c.shape());
            float[] shifted = a.clone();
            System.arraycopy(expected, 3, shifted, 2, n);
            assertClose(fn + " " + c.name() + " in place", shifted, aliased, 2e-6f, 1e-6f);
        }
    }

    @Test
    void reduceMatchesReferenceForEveryAxisSet() {
        // {40, 26, 32}, {7, 64}, {5, 3, 48}: bias gradients whose width is a few whole vectors (columnSums).
        int[][] shapes = {{6, 7, 9}, {300, 517}, {1, 5, 1, 3}, {4, 0, 3}, {70001}, {2, 3, 4, 5}, {40, 26, 32},
            {7, 64}, {5, 3, 48}, {9, 80}};
        withBudgets(() -> {
            for (ReduceFn fn : ReduceFn.values()) {
                for (int[] shape : shapes) {
                    for (int mask = 0; mask < 1 << shape.length; mask++) {
                        checkReduce(fn, shape, mask);
                    }
                }
            }
        });
    }

    private void checkReduce(ReduceFn fn, int[] shape, int mask) {
        boolean[] axes = new boolean[shape.length];
        int n = 1;
        int outSize = 1;
        for (int d = 0; d < shape.length; d++) {
            axes[d] = (mask >> d & 1) != 0;
            n *= shape[d];
            outSize *= axes[d] ? 1 : shape[d];
        }
        float[] x = uniform(random, 3 + n, -1, 1);
        float[] expected = new float[2 + outSize];
        float[] actual = new float[2 + outSize];
        SCALAR.reduce(fn, x, 3, shape, axes, expected, 2);
        VECTOR.reduce(fn, x, 3, shape, axes, actual, 2);
        assertClose(fn + " of " + java.util.Arrays.toString(shape) + " over " + java.util.Arrays.toString(axes),
                expected, actual, 1e-5f, 1e-4f);
    }

    @Test
    void softmaxAndItsBackwardMatchReference() {
        int[][] sizes = {{1, 1}, {5, 37}, {3, 1000}, {300, 257}, {2, 16}, {128, 10}, {33, 15}, {7, 1}};
        withBudgets(() -> {
            for (boolean log : new boolean[] {false, true}) {
                for (int[] s : sizes) {
                    int n = s[0] * s[1];
                    float[] x = uniform(random, 4 + n, -8, 8);
                    float[] expected = new float[1 + n];
                    float[] actual = new float[1 + n];
                    SCALAR.softmax(log, x, 4, expected, 1, s[0], s[1]);
                    VECTOR.softmax(log, x, 4, actual, 1, s[0], s[1]);
                    assertClose("softmax log=" + log + " " + s[0] + "x" + s[1], expected, actual, 2e-6f, 1e-6f);

                    float[] dy = uniform(random, 2 + n, -1, 1);
                    float[] dxExpected = new float[3 + n];
                    float[] dxActual = new float[3 + n];
                    SCALAR.softmaxBackward(log, expected, 1, dy, 2, dxExpected, 3, s[0], s[1]);
                    VECTOR.softmaxBackward(log, expected, 1, dy, 2, dxActual, 3, s[0], s[1]);
                    assertClose("softmax backward log=" + log + " " + s[0] + "x" + s[1], dxExpected, dxActual,
                            1e-5f, 1e-5f);
                }
            }
        });
    }

    @Test
    void sparseSoftmaxCrossEntropyIsLogSoftmaxGatheredAndMatchesReference() {
        // Narrow rows on any vector width ({400, 3} splits at 2 threads), and wide ones that split ({70, 1000}).
        int[][] sizes = {{1, 1}, {128, 10}, {5, 37}, {3, 1000}, {2, 16}, {33, 15}, {3000, 12}, {400, 3}, {70, 1000},
            {30000, 3}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                int rows = s[0];
                int cols = s[1];
                int n = rows * cols;
                float[] x = uniform(random, 3 + n, -8, 8);
                float[] index = new float[2 + rows];
                for (int r = 0; r < rows; r++) {
                    index[2 + r] = random.nextInt(cols);
                }
                String what = rows + "x" + cols;
                for (Kernels k : new Kernels[] {SCALAR, VECTOR}) {
                    // The loss has the bits of -gatherRows(logSoftmax(x)) on the same backend, and the
                    // probabilities those of softmax(x).
                    float[] loss = new float[1 + rows];
                    float[] probs = new float[4 + n];
                    k.sparseSoftmaxCrossEntropy(x, 3, index, 2, probs, 4, loss, 1, rows, cols);
                    float[] logProbs = new float[n];
                    float[] picked = new float[rows];
                    k.softmax(true, x, 3, logProbs, 0, rows, cols);
                    k.gatherRows(logProbs, 0, index, 2, picked, 0, rows, cols);
                    for (int r = 0; r < rows; r++) {
                        assertEquals(-picked[r], loss[1 + r], what + " row " + r + " on " + k.name());
                    }
                    float[] softmax = new float[4 + n];
                    k.softmax(false, x, 3, softmax, 4, rows, cols);
                    assertArrayEquals(softmax, probs, what + " probabilities on " + k.name());
                }
                float[] lossScalar = new float[rows];
                float[] lossVector = new float[rows];
                float[] probsScalar = new float[n];
                float[] probsVector = new float[n];
                SCALAR.sparseSoftmaxCrossEntropy(x, 3, index, 2, probsScalar, 0, lossScalar, 0, rows, cols);
                VECTOR.sparseSoftmaxCrossEntropy(x, 3, index, 2, probsVector, 0, lossVector, 0, rows, cols);
                assertClose("cross-entropy " + what, lossScalar, lossVector, 2e-6f, 1e-5f);

                float[] dy = uniform(random, 1 + rows, -1, 1);
                float[] dxScalar = new float[2 + n];
                float[] dxVector = new float[2 + n];
                SCALAR.sparseSoftmaxCrossEntropyBackward(probsScalar, 0, index, 2, dy, 1, dxScalar, 2, rows, cols);
                VECTOR.sparseSoftmaxCrossEntropyBackward(probsScalar, 0, index, 2, dy, 1, dxVector, 2, rows, cols);
                assertArrayEquals(dxScalar, dxVector, "cross-entropy backward " + what);
                for (int r = 0; r < rows; r++) {
                    int label = (int) index[2 + r];
                    assertEquals(dy[1 + r] * (probsScalar[r * cols + label] - 1f), dxScalar[2 + r * cols + label]);
                }
            }
        });
    }

    @Test
    void sparseSoftmaxCrossEntropyNamesABadClassIndex() {
        float[] x = new float[6];
        float[] index = {1, 3};
        for (Kernels k : new Kernels[] {SCALAR, VECTOR}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> k.sparseSoftmaxCrossEntropy(x, 0, index, 0, new float[6], 0, new float[2], 0, 2, 3));
            assertEquals("class index 3.0 in row 1 is not an integer in [0, 3)", e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> k.sparseSoftmaxCrossEntropyBackward(new float[6], 0,
                    index, 0, new float[2], 0, new float[6], 0, 2, 3));
            assertEquals("class index 3.0 in row 1 is not an integer in [0, 3)", e.getMessage());
        }
    }

    @Test
    void narrowSoftmaxRowsGiveTheSameBitsHoweverTheRowsAreSplit() {
        // 7,001 rows of 10: two threads cut the block where no vector boundary falls.
        int rows = 7001;
        int cols = 10;
        float[] x = uniform(random, 3 + rows * cols, -8, 8);
        float[] dy = uniform(random, rows * cols, -1, 1);
        for (boolean log : new boolean[] {false, true}) {
            float[][] y = new float[2][rows * cols];
            float[][] dx = new float[2][rows * cols];
            for (int threads = 1; threads <= 2; threads++) {
                dev.brisk.parallel.ThreadBudget.set(threads);
                try {
                    VECTOR.softmax(log, x, 3, y[threads - 1], 0, rows, cols);
                    VECTOR.softmaxBackward(log, y[threads - 1], 0, dy, 0, dx[threads - 1], 0, rows, cols);
                } finally {
                    dev.brisk.parallel.ThreadBudget.reset();
                }
            }
            assertArrayEquals(y[0], y[1], "softmax log=" + log);
            assertArrayEquals(dx[0], dx[1], "softmax backward log=" + log);
        }
    }

    @Test
    void gatherAndScatterMatchReference() {
        int rows = 9;
        int cols = 13;
        float[] x = uniform(random, 1 + rows * cols, -1, 1);
        float[] index = new float[2 + rows];
        for (int r = 0; r < rows; r++) {
            index[2 + r] = random.nextInt(cols);
        }
        float[] expected = new float[3 + rows];
        float[] actual = new float[3 + rows];
        SCALAR.gatherRows(x, 1, index, 2, expected, 3, rows, cols);
        VECTOR.gatherRows(x, 1, index, 2, actual, 3, rows, cols);
        assertArrayEquals(expected, actual);
        float[] dxExpected = uniform(random, 4 + rows * cols, -1, 1);
        float[] dxActual = dxExpected.clone();
        SCALAR.scatterRows(expected, 3, index, 2, dxExpected, 4, rows, cols);
        VECTOR.scatterRows(expected, 3, index, 2, dxActual, 4, rows, cols);
        assertArrayEquals(dxExpected, dxActual);
    }

    // ---------------------------------------------------------------- convolution and pooling

    /** batch, height, width, channels, kh, kw, outChannels, strideH, strideW, padTop, padLeft, outH, outW. */
    static final ConvGeometry[] CONVS = {
        new ConvGeometry(2, 7, 9, 3, 3, 3, 5, 1, 1, 0, 0, 5, 7),
        new ConvGeometry(2, 7, 9, 3, 3, 3, 5, 2, 2, 1, 1, 4, 5),
        new ConvGeometry(3, 5, 5, 4, 1, 1, 6, 1, 1, 0, 0, 5, 5),
        new ConvGeometry(1, 6, 8, 1, 5, 3, 33, 1, 1, 2, 1, 6, 8),
        new ConvGeometry(2, 9, 10, 1, 3, 3, 4, 2, 2, 1, 1, 5, 5),
        new ConvGeometry(4, 12, 12, 2, 3, 3, 7, 1, 2, 1, 0, 12, 5),
        new ConvGeometry(8, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
        new ConvGeometry(16, 13, 13, 32, 3, 3, 64, 1, 1, 0, 0, 11, 11),
    };

    @Test
    void convolutionsMatchReference() {
        withBudgets(() -> {
            for (ConvGeometry g : CONVS) {
                int xSize = g.batch() * g.height() * g.width() * g.channels();
                int wSize = g.kernelH() * g.kernelW() * g.channels() * g.outChannels();
                int ySize = g.batch() * g.outH() * g.outW() * g.outChannels();
                float[] x = uniform(random, 3 + xSize, -1, 1);
                float[] w = uniform(random, 5 + wSize, -1, 1);
                float[] expected = uniform(random, 2 + ySize, -1, 1);
                float[] actual = expected.clone();
                SCALAR.conv2d(g, x, 3, w, 5, expected, 2);
                VECTOR.conv2d(g, x, 3, w, 5, actual, 2);
                // F(4x4, 3x3) is held to a tolerance proportional to the output's size (VectorWinogradConvTest).
                assertClose("conv2d " + g, expected, actual, 1e-4f,
                        VectorWinogradConvTest.tolerance(g, expected, 1e-4f));

                float[] dy = uniform(random, 1 + ySize, -1, 1);
                float[] dxExpected = uniform(random, 4 + xSize, -1, 1);
                float[] dxActual = dxExpected.clone();
                SCALAR.conv2dBackwardInput(g, dy, 1, w, 5, dxExpected, 4);
                VECTOR.conv2dBackwardInput(g, dy, 1, w, 5, dxActual, 4);
                assertClose("conv2d backward input " + g, dxExpected, dxActual, 1e-4f,
                        VectorWinogradConvTest.tolerance(g, dxExpected, 1e-4f));

                float[] dwExpected = uniform(random, 6 + wSize, -1, 1);
                float[] dwActual = dwExpected.clone();
                SCALAR.conv2dBackwardFilter(g, x, 3, dy, 1, dwExpected, 6);
                VECTOR.conv2dBackwardFilter(g, x, 3, dy, 1, dwActual, 6);
                assertClose("conv2d backward filter " + g, dwExpected, dwActual, 1e-4f,
                        VectorWinogradConvTest.tolerance(g, dwExpected, 2e-4f));
            }
        });
    }

    /** batch, height, width, channels, poolH, poolW, strideH, strideW, padTop, padLeft, outH, outW. */
    static final PoolGeometry[] POOLS = {
        new PoolGeometry(2, 4, 4, 3, 2, 2, 2, 2, 0, 0, 2, 2),
        new PoolGeometry(2, 5, 5, 17, 2, 2, 2, 2, 0, 0, 2, 2),
        new PoolGeometry(2, 5, 5, 17, 2, 2, 2, 2, 0, 0, 3, 3),
        new PoolGeometry(1, 7, 6, 40, 3, 3, 2, 2, 1, 1, 4, 3),
        new PoolGeometry(3, 6, 6, 1, 3, 3, 1, 1, 1, 1, 6, 6),
        new PoolGeometry(32, 26, 26, 32, 2, 2, 2, 2, 0, 0, 13, 13),
    };

    /**
     * Max pooling's cells and gradients on special values, bit for bit against the scalar kernels: NaN in any cell
     * (a maximum and its gradient come from a NaN only in the first cell), signed zeros and infinities tied with each
     * other, and relu's gate, from the cells, deciding on the window's maximum as relu's gradient of the pooled input
     * does. 2x2 windows that tile the image, and 3x3 ones with stride 2 and padding (overlapping, clipped).
     */
    @Test
    void maxPoolingCellsAndGradientsOnSpecialValuesMatchReferenceBits() {
        float[] values = {Float.NaN, 0f, -0f, 1f, -1f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 2f};
        PoolGeometry[] pools = {
            new PoolGeometry(4, 8, 8, 32, 2, 2, 2, 2, 0, 0, 4, 4),
            new PoolGeometry(2, 7, 6, 40, 3, 3, 2, 2, 1, 1, 4, 3),
        };
        withBudgets(() -> {
            for (PoolGeometry g : pools) {
                int xSize = g.batch() * g.height() * g.width() * g.channels();
                int ySize = g.batch() * g.outH() * g.outW() * g.channels();
                float[] x = new float[xSize];
                for (int i = 0; i < xSize; i++) {
                    x[i] = values[random.nextInt(values.length)];
                }
                float[] dy = uniform(random, ySize, -1, 1);
                dy[0] = -0f;
                float[] yExpected = new float[ySize];
                float[] yActual = new float[ySize];
                float[] cellsExpected = new float[ySize];
                float[] cellsActual = new float[ySize];
                SCALAR.maxPool2d(g, x, 0, yExpected, 0, cellsExpected, 0);
                VECTOR.maxPool2d(g, x, 0, yActual, 0, cellsActual, 0);
                assertArrayEquals(yExpected, yActual, "max pool on special values " + g);
                assertArrayEquals(cellsExpected, cellsActual, "max pool cells on special values " + g);
                float[] expected = new float[xSize];
                float[] actual = new float[xSize];
                SCALAR.maxPool2dBackward(g, cellsExpected, 0, dy, 0, expected, 0);
                VECTOR.maxPool2dBackward(g, cellsActual, 0, dy, 0, actual, 0);
                assertArrayEquals(expected, actual, "max pool backward on special values " + g);
                // Relu's gradient applied to the pooled input itself, as a separate pass: the cells' gate.
                SCALAR.binary(BinaryFn.RELU_GRAD, 0f, x, 0, new int[] {1}, expected, 0, new int[] {1}, expected, 0,
                        new int[] {xSize});
                SCALAR.maxPool2dBackwardGated(g, cellsExpected, 0, dy, 0, BinaryFn.RELU_GRAD, 0f, null, 0, actual, 0);
                assertArrayEquals(expected, actual, "scalar backward gated by its cells " + g);
                VECTOR.maxPool2dBackwardGated(g, cellsActual, 0, dy, 0, BinaryFn.RELU_GRAD, 0f, null, 0, actual, 0);
                assertArrayEquals(expected, actual, "vector backward gated by its cells " + g);
            }
        });
    }

    @Test
    void poolingMatchesReference() {
        withBudgets(() -> {
            for (PoolGeometry g : POOLS) {
                int xSize = g.batch() * g.height() * g.width() * g.channels();
                int ySize = g.batch() * g.outH() * g.outW() * g.channels();
                // Few levels, so that windows hold ties and the first-maximum rule matters.
                float[] x = levels(random, 3 + xSize, 4);
                float[] dy = uniform(random, 2 + ySize, -1, 1);
                for (boolean max : new boolean[] {true, false}) {
                    float[] expected = uniform(random, 1 + ySize, -1, 1);
                    float[] actual = expected.clone();
                    float[] dxExpected = uniform(random, 4 + xSize, -1, 1);
                    float[] dxActual = dxExpected.clone();
                    if (max) {
                        float[] cellsExpected = new float[5 + ySize];
                        float[] cellsActual = new float[5 + ySize];
                        SCALAR.maxPool2d(g, x, 3, expected, 1, cellsExpected, 5);
                        VECTOR.maxPool2d(g, x, 3, actual, 1, cellsActual, 5);
                        assertArrayEquals(cellsExpected, cellsActual, "max pool cells " + g);
                        float[] plain = actual.clone();
                        VECTOR.maxPool2d(g, x, 3, plain, 1);
                        assertArrayEquals(actual, plain, "max pool without cells " + g);
                        SCALAR.maxPool2dBackward(g, cellsExpected, 5, dy, 2, dxExpected, 4);
                        VECTOR.maxPool2dBackward(g, cellsActual, 5, dy, 2, dxActual, 4);
                    } else {
                        SCALAR.avgPool2d(g, x, 3, expected, 1);
                        VECTOR.avgPool2d(g, x, 3, actual, 1);
                        SCALAR.avgPool2dBackward(g, dy, 2, dxExpected, 4);
                        VECTOR.avgPool2dBackward(g, dy, 2, dxActual, 4);
                    }
                    String name = (max ? "max" : "avg") + " pool " + g;
                    assertClose(name, expected, actual, 1e-6f, 1e-6f);
                    assertClose(name + " backward", dxExpected, dxActual, 1e-6f, 1e-6f);
                }
            }
        });
    }

    // ---------------------------------------------------------------- data movement, dropout, optimisers

    @Test
    void transposeFillAndCopyMatchReference() {
        withBudgets(() -> {
            for (int[] s : new int[][] {{3, 37, 45}, {2, 300, 257}, {1, 1, 70}, {4, 33, 1}}) {
                int n = s[0] * s[1] * s[2];
                float[] x = uniform(random, 2 + n, -1, 1);
                float[] expected = new float[5 + n];
                float[] actual = new float[5 + n];
                SCALAR.transpose(x, 2, expected, 5, s[0], s[1], s[2]);
                VECTOR.transpose(x, 2, actual, 5, s[0], s[1], s[2]);
                assertArrayEquals(expected, actual, "transpose " + java.util.Arrays.toString(s));
            }
        });
        float[] expected = new float[40];
        float[] actual = new float[40];
        SCALAR.fill(expected, 3, 31, 2.5f);
        VECTOR.fill(actual, 3, 31, 2.5f);
        assertArrayEquals(expected, actual);
        float[] x = uniform(random, 40, -1, 1);
        SCALAR.copy(x, 1, expected, 4, 33);
        VECTOR.copy(x, 1, actual, 4, 33);
        assertArrayEquals(expected, actual);
        SCALAR.copy2d(x, 2, 7, expected, 1, 9, 4, 5);
        VECTOR.copy2d(x, 2, 7, actual, 1, 9, 4, 5);
        assertArrayEquals(expected, actual);
    }

    @Test
    void dropoutMatchesReferenceExactly() {
        // Sizes around the vector length and the split, odd offsets, rates at and beside multiples of 2^-24 (where
        // the integer keep test must agree with the float one), and inputs the division must carry through.
        float[] rates = {0f, 0.3f, 0.5f, 0x1.0p-24f, 0x1.8p-24f, Math.nextDown(1f)};
        for (int n : new int[] {1, 7, 8, 9, 17, 1003, 70001, 131075}) {
            float[] x = uniform(random, 3 + n, -1, 1);
            x[3] = Float.NaN;
            x[3 + n / 2] = -0f;
            x[2 + n] = Float.NEGATIVE_INFINITY;
            for (float rate : rates) {
                float[] maskExpected = new float[1 + n];
                float[] expected = new float[2 + n];
                ThreadBudget.set(1);
                try {
                    SCALAR.dropout(rate, 99L + n, x, 3, maskExpected, 1, expected, 2, n);
                } finally {
                    ThreadBudget.reset();
                }
                // The draws are a function of the element index alone: any thread count, any split, the same bits.
                for (int threads : new int[] {1, 2, 3}) {
                    float[] maskActual = new float[1 + n];
                    float[] actual = new float[2 + n];
                    ThreadBudget.set(threads);
                    try {
                        VECTOR.dropout(rate, 99L + n, x, 3, maskActual, 1, actual, 2, n);
                    } finally {
                        ThreadBudget.reset();
                    }
                    String name = "dropout n=" + n + " rate=" + rate + " threads=" + threads;
                    assertArrayEquals(maskExpected, maskActual, name + " mask");
                    assertArrayEquals(expected, actual, name);
                }
            }
        }
        assertThrows(IllegalArgumentException.class,
                () -> VECTOR.dropout(1f, 1L, new float[4], 0, new float[4], 0, new float[4], 0, 4));
    }

    @Test
    void optimizerStepsMatchReference() {
        withBudgets(() -> {
            for (int n : new int[] {1, 17, 1003, 70001}) {
                float[] g = uniform(random, 2 + n, -1, 1);
                float[][] adam = {uniform(random, 3 + n, -1, 1), uniform(random, 4 + n, -0.1f, 0.1f),
                    uniform(random, 5 + n, 0, 0.01f)};
                float[][] adamV = {adam[0].clone(), adam[1].clone(), adam[2].clone()};
                for (float decay : new float[] {0f, 1e-4f}) {
                    SCALAR.adamStep(adam[0], 3, g, 2, adam[1], 4, adam[2], 5, n, 1e-3f, 0.9f, 0.999f, 1e-7f, decay);
                    VECTOR.adamStep(adamV[0], 3, g, 2, adamV[1], 4, adamV[2], 5, n, 1e-3f, 0.9f, 0.999f, 1e-7f,
                            decay);
                    for (int i = 0; i < 3; i++) {
                        assertClose("adam state " + i + " n=" + n, adam[i], adamV[i], 1e-6f, 1e-7f);
                    }
                }

                float[] p = uniform(random, 1 + n, -1, 1);
                float[] pV = p.clone();
                SCALAR.sgdStep(p, 1, g, 2, null, 0, n, 0.01f, 0f, false, 0f);
                VECTOR.sgdStep(pV, 1, g, 2, null, 0, n, 0.01f, 0f, false, 0f);
                assertClose("sgd n=" + n, p, pV, 1e-6f, 1e-7f);
                for (boolean nesterov : new boolean[] {false, true}) {
                    float[] vel = uniform(random, 6 + n, -0.1f, 0.1f);
                    float[] velV = vel.clone();
                    SCALAR.sgdStep(p, 1, g, 2, vel, 6, n, 0.01f, 0.9f, nesterov, 0f);
                    VECTOR.sgdStep(pV, 1, g, 2, velV, 6, n, 0.01f, 0.9f, nesterov, 0f);
                    assertClose("sgd momentum nesterov=" + nesterov + " n=" + n, p, pV, 1e-6f, 1e-7f);
                    assertClose("sgd velocity nesterov=" + nesterov + " n=" + n, vel, velV, 1e-6f, 1e-7f);
                }

                float[] ms = uniform(random, 7 + n, 0, 0.01f);
                float[] msV = ms.clone();
                SCALAR.rmspropStep(p, 1, g, 2, ms, 7, n, 1e-3f, 0.9f, 1e-7f);
                VECTOR.rmspropStep(pV, 1, g, 2, msV, 7, n, 1e-3f, 0.9f, 1e-7f);
                assertClose("rmsprop n=" + n, p, pV, 1e-6f, 1e-7f);
                assertClose("rmsprop state n=" + n, ms, msV, 1e-6f, 1e-7f);
            }
        });
    }
}
