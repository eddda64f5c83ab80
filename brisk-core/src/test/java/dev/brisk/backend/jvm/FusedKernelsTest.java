package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.levels;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fused kernels (a product or convolution with its bias and activation, max pooling's backward with an
 * activation's gradient) give exactly the bits of the separate calls they replace on the same backend, and match
 * the scalar reference, on sizes that are not multiples of the vector length and with one and two threads.
 */
class FusedKernelsTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final Kernels VECTOR = new VectorKernels();
    /** null: no activation. Transcendental ones check that the epilogue runs the vector formulas of unary(). */
    private static final UnaryFn[] ACTIVATIONS = {null, UnaryFn.RELU, UnaryFn.LEAKY_RELU, UnaryFn.TANH,
        UnaryFn.SIGMOID, UnaryFn.GELU};
    private static final BinaryFn[] GRADIENTS = {BinaryFn.RELU_GRAD, BinaryFn.LEAKY_RELU_GRAD,
        BinaryFn.SIGMOID_GRAD, BinaryFn.TANH_GRAD, BinaryFn.GELU_GRAD};
    private final Random random = new Random(20261203);

    /**
     * The bias and filter gradients read from a pool's cells and the pooled gradient give the bits of the same
     * kernels over the routed gradient itself: windows that tile the output and ones that leave a row and a column
     * over, one and three input channels, 16 and 32 output channels, 1 and 2 threads (whose slots differ, and
     * split 5 images of 7 rows mid-row).
     */
    @Test
    void gradientsReadFromPoolCellsMatchTheRoutedGradient() {
        ConvGeometry[] convs = {
            new ConvGeometry(6, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
            new ConvGeometry(5, 9, 9, 3, 3, 3, 16, 1, 1, 0, 0, 7, 7),
            new ConvGeometry(5, 9, 9, 1, 3, 3, 32, 1, 1, 0, 0, 7, 7),
            // Three input channels and two vectors of filters: three taps at a time, not the nine-tap loop.
            new ConvGeometry(5, 9, 9, 3, 3, 3, 32, 1, 1, 0, 0, 7, 7),
        };
        PoolGeometry[] pools = {
            new PoolGeometry(6, 26, 26, 32, 2, 2, 2, 2, 0, 0, 13, 13),
            new PoolGeometry(5, 7, 7, 16, 2, 2, 2, 2, 0, 0, 3, 3),
            new PoolGeometry(5, 7, 7, 32, 2, 2, 2, 2, 0, 0, 3, 3),
            new PoolGeometry(5, 7, 7, 32, 2, 2, 2, 2, 0, 0, 3, 3),
        };
        withBudgets(() -> {
            for (int t = 0; t < convs.length; t++) {
                ConvGeometry g = convs[t];
                PoolGeometry p = pools[t];
                assertTrue(VECTOR.readsPooledGradient(g, p), g + " " + p);
                int convSize = g.batch() * g.outH() * g.outW() * g.outChannels();
                int poolSize = p.batch() * p.outH() * p.outW() * p.channels();
                float[] x = uniform(random, 1 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
                // Conv outputs with exact zeros and negatives (relu's gate) and ties (the first maximum's cell).
                float[] h = levels(random, convSize, 4);
                for (int i = 0; i < convSize; i++) {
                    h[i] -= 1f;
                }
                float[] cells = new float[2 + poolSize];
                VECTOR.maxPool2d(p, h, 0, new float[poolSize], 0, cells, 2);
                float[] dy = uniform(random, 3 + poolSize, -1, 1);
                for (int i = 3; i < dy.length; i += 7) {
                    dy[i] = -0f; // routed as 0 + dy = +0 by the pool gradient, as -0 by a masked load
                }
                float[] routed = new float[convSize];
                VECTOR.maxPool2dBackwardGated(p, cells, 2, dy, 3, BinaryFn.RELU_GRAD, 0f, null, 0, routed, 0);
                float[] sums = new float[g.outChannels()];
                VECTOR.reduce(ReduceFn.SUM, routed, 0, new int[] {g.batch(), g.outH(), g.outW(), g.outChannels()},
                        new boolean[] {true, true, true, false}, sums, 0);
                float[] sumsFromCells = new float[1 + g.outChannels()];
                VECTOR.channelSumsOfPooledGradient(p, cells, 2, dy, 3, sumsFromCells, 1);
                String what = "conv " + g + " pooled " + p;
                assertArrayEquals(sums, Arrays.copyOfRange(sumsFromCells, 1, sumsFromCells.length),
                        what + ": channel sums");
                int k = g.kernelH() * g.kernelW() * g.channels() * g.outChannels();
                float[] dw = new float[k];
                VECTOR.conv2dBackwardFilter(g, x, 1, routed, 0, dw, 0);
                float[] dwFromCells = new float[4 + k];
                VECTOR.conv2dBackwardFilterOfPooledGradient(g, x, 1, p, cells, 2, dy, 3, dwFromCells, 4);
                assertArrayEquals(dw, Arrays.copyOfRange(dwFromCells, 4, dwFromCells.length),
                        what + ": filter gradient");
            }
        });
    }

    /**
     * A convolution pooled image by image in cache gives the bits of the two calls, pooled values and cells alike:
     * 2x2 windows that tile the output and ones that leave a row over, overlapping padded 3x3 windows, a batch
     * that splits unevenly, relu, tanh and no activation, shallow kernels (computed directly) and deep ones
     * (through columns, a few images at a time).
     */
    @Test
    void convolutionPooledInCacheMatchesTheTwoCalls() {
        ConvGeometry[] convs = {
            new ConvGeometry(3, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
            new ConvGeometry(5, 9, 9, 1, 3, 3, 8, 1, 1, 0, 0, 7, 7),
            new ConvGeometry(2, 8, 8, 3, 3, 3, 16, 1, 1, 1, 1, 8, 8),
            new ConvGeometry(7, 13, 13, 32, 3, 3, 64, 1, 1, 0, 0, 11, 11),
            new ConvGeometry(3, 6, 6, 16, 3, 3, 24, 1, 1, 1, 1, 6, 6),
        };
        PoolGeometry[] pools = {
            new PoolGeometry(3, 26, 26, 32, 2, 2, 2, 2, 0, 0, 13, 13),
            new PoolGeometry(5, 7, 7, 8, 2, 2, 2, 2, 0, 0, 3, 3),
            new PoolGeometry(2, 8, 8, 16, 3, 3, 2, 2, 1, 1, 4, 4),
            new PoolGeometry(7, 11, 11, 64, 2, 2, 2, 2, 0, 0, 5, 5),
            new PoolGeometry(3, 6, 6, 24, 3, 3, 2, 2, 1, 1, 3, 3),
        };
        withBudgets(() -> {
            for (int t = 0; t < convs.length; t++) {
                ConvGeometry g = convs[t];
                PoolGeometry p = pools[t];
                float[] x = uniform(random, 2 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
                float[] w = uniform(random, 1 + g.kernelH() * g.kernelW() * g.channels() * g.outChannels(), -1, 1);
                float[] bias = uniform(random, g.outChannels(), -0.5f, 0.5f);
                int convSize = g.batch() * g.outH() * g.outW() * g.outChannels();
                int poolSize = p.batch() * p.outH() * p.outW() * p.channels();
                for (UnaryFn fn : new UnaryFn[] {UnaryFn.RELU, UnaryFn.TANH, null}) {
                    assertTrue(VECTOR.poolsConvolutionInCache(g, fn, p), g + " " + p);
                    float[] conv = new float[convSize];
                    float[] expected = new float[poolSize];
                    float[] expectedCells = new float[poolSize];
                    VECTOR.conv2dBiasActivation(g, x, 2, w, 1, bias, 0, fn, 0f, conv, 0);
                    VECTOR.maxPool2d(p, conv, 0, expected, 0, expectedCells, 0);
                    float[] actual = new float[3 + poolSize];
                    float[] actualCells = new float[4 + poolSize];
                    VECTOR.conv2dBiasActivationMaxPool(g, x, 2, w, 1, bias, 0, fn, 0f, p, actual, 3, actualCells, 4);
                    String what = "conv " + g + " pooled " + p + " with " + fn;
                    assertArrayEquals(expected, Arrays.copyOfRange(actual, 3, actual.length), what);
                    assertArrayEquals(expectedCells, Arrays.copyOfRange(actualCells, 4, actualCells.length),
                            what + ": cells");
                }
            }
        });
    }

    @Test
    void gemmWithBiasAndActivationIsGemmThenAddThenActivation() {
        int[][] sizes = {{1, 1, 1}, {7, 1, 3}, {1, 7, 5}, {7, 129, 5}, {129, 7, 300}, {13, 17, 641}, {130, 150, 70},
            {6, 32, 9}, {5, 10, 0}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                for (int flags = 0; flags < 8; flags++) {
                    for (UnaryFn fn : ACTIVATIONS) {
                        checkGemm(s[0], s[1], s[2], (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0, fn);
                    }
                }
            }
        });
    }

    private void checkGemm(int m, int n, int k, boolean transA, boolean transB, boolean withBias, UnaryFn fn) {
        int lda = (transA ? m : k) + 3;
        int ldb = (transB ? k : n) + 2;
        float[] a = uniform(random, 5 + (transA ? k : m) * lda, -1, 1);
        float[] b = uniform(random, 7 + (transB ? n : k) * ldb, -1, 1);
        float[] bias = withBias ? uniform(random, 2 + n, -1, 1) : null;
        float alpha = 0.2f;
        float[] separate = uniform(random, 11 + m * n + 4, -1, 1);
        float[] fused = separate.clone();
        float[] reference = separate.clone();
        VECTOR.gemm(transA, transB, m, n, k, a, 5, lda, b, 7, ldb, separate, 11, n, false);
        biasThenActivation(VECTOR, separate, 11, m, n, bias, fn, alpha);
        VECTOR.gemmBiasActivation(transA, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, fn, alpha, fused, 11, n);
        SCALAR.gemmBiasActivation(transA, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, fn, alpha, reference, 11,
                n);
        String what = "gemm " + m + "x" + n + "x" + k + " transA=" + transA + " transB=" + transB + " bias="
                + withBias + " fn=" + fn;
        assertArrayEquals(separate, fused, what);
        assertClose(what + " vs reference", reference, fused, 1e-5f, 1e-6f * k + 1e-5f);
    }

    /**
     * A product (with and without a bias and activation) then a binary op with an operand of its shape, in one
     * call, gives the bits of gemm with its epilogue and then the binary kernel, the product as either operand:
     * activation gradients and an add, on narrow, wide, column-split and empty products, with one and two threads.
     */
    @Test
    void gemmThenBinaryIsGemmThenTheBinaryKernel() {
        int[][] sizes = {{1, 1, 1}, {7, 5, 3}, {129, 7, 300}, {13, 17, 641}, {130, 150, 70}, {40, 512, 128},
            {300, 70, 50}, {5, 10, 0}};
        BinaryFn[] fns = {BinaryFn.ADD, BinaryFn.SUB, BinaryFn.RELU_GRAD, BinaryFn.GELU_GRAD, BinaryFn.TANH_GRAD};
        withBudgets(() -> {
            for (int[] s : sizes) {
                for (int flags = 0; flags < 16; flags++) {
                    for (BinaryFn fn : fns) {
                        checkGemmBinary(s[0], s[1], s[2], (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0,
                                (flags & 8) != 0 ? UnaryFn.GELU : null, fn);
                    }
                    checkGemmBinary(s[0], s[1], s[2], false, (flags & 2) != 0, (flags & 4) != 0, UnaryFn.RELU,
                            BinaryFn.ADD);
                }
            }
        });
    }

    /**
     * A product with its bias, kept, and its activation written elsewhere in one call gives the bits of gemm with
     * the bias and then the unary kernel, on narrow, wide, column-split and empty products, with one and two threads.
     */
    @Test
    void gemmKeepingThePreActivationIsGemmWithBiasThenTheActivation() {
        int[][] sizes = {{1, 1, 1}, {7, 5, 3}, {129, 7, 300}, {13, 17, 641}, {130, 150, 70}, {40, 512, 128},
            {5, 10, 0}};
        withBudgets(() -> {
            for (int[] s : sizes) {
                for (int flags = 0; flags < 4; flags++) {
                    for (UnaryFn fn : ACTIVATIONS) {
                        if (fn != null) {
                            checkGemmKeeping(s[0], s[1], s[2], (flags & 1) != 0, (flags & 2) != 0, fn);
                        }
                    }
                }
            }
        });
    }

    private void checkGemmKeeping(int m, int n, int k, boolean transB, boolean withBias, UnaryFn fn) {
        int lda = k + 1;
        int ldb = (transB ? k : n) + 2;
        float[] a = uniform(random, 5 + m * lda, -1, 1);
        float[] b = uniform(random, 7 + (transB ? n : k) * ldb, -1, 1);
        float[] bias = withBias ? uniform(random, 2 + n, -1, 1) : null;
        float[] z = new float[4 + m * n];
        VECTOR.gemmBiasActivation(false, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, null, 0f, z, 4, n);
        float[] y = new float[6 + m * n];
        VECTOR.unary(fn, 0.1f, z, 4, y, 6, m * n);
        float[] keptZ = uniform(random, 4 + m * n, -1, 1);
        float[] keptY = uniform(random, 6 + m * n, -1, 1);
        System.arraycopy(z, 0, keptZ, 0, 4);
        System.arraycopy(y, 0, keptY, 0, 6);
        VECTOR.gemmBiasActivationKeepingInput(false, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, fn, 0.1f, keptZ,
                4, keptY, 6, n);
        float[] refZ = new float[4 + m * n];
        float[] refY = new float[6 + m * n];
        SCALAR.gemmBiasActivationKeepingInput(false, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, fn, 0.1f, refZ,
                4, refY, 6, n);
        String what = "gemm " + m + "x" + n + "x" + k + " transB=" + transB + " bias=" + withBias + " keeping " + fn;
        assertArrayEquals(z, keptZ, what + ": pre-activation");
        assertArrayEquals(y, keptY, what + ": activation");
        assertClose(what + " vs reference", refZ, keptZ, 1e-4f, 1e-5f * k + 1e-4f);
    }

    private void checkGemmBinary(int m, int n, int k, boolean productFirst, boolean transB, boolean withBias,
                                 UnaryFn activation, BinaryFn fn) {
        int lda = k + 1;
        int ldb = (transB ? k : n) + 2;
        float[] a = uniform(random, 5 + m * lda, -1, 1);
        float[] b = uniform(random, 7 + (transB ? n : k) * ldb, -1, 1);
        float[] bias = withBias ? uniform(random, 2 + n, -1, 1) : null;
        float[] x = uniform(random, 3 + m * n, -2, 2);
        float[] product = new float[m * n + 4];
        VECTOR.gemmBiasActivation(false, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, activation, 0.1f, product, 0,
                n);
        float[] separate = new float[9 + m * n];
        int[] strides = {n, 1};
        int[] shape = {m, n};
        if (productFirst) {
            VECTOR.binary(fn, 0.3f, product, 0, strides, x, 3, strides, separate, 9, shape);
        } else {
            VECTOR.binary(fn, 0.3f, x, 3, strides, product, 0, strides, separate, 9, shape);
        }
        float[] fused = uniform(random, 9 + m * n, -1, 1);
        System.arraycopy(separate, 0, fused, 0, 9);
        VECTOR.gemmBinary(false, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, activation, 0.1f, fn, 0.3f, x, 3,
                productFirst, fused, 9, n);
        float[] reference = new float[9 + m * n];
        SCALAR.gemmBinary(false, transB, m, n, k, a, 5, lda, b, 7, ldb, bias, 2, activation, 0.1f, fn, 0.3f, x, 3,
                productFirst, reference, 9, n);
        String what = "gemm " + m + "x" + n + "x" + k + " transB=" + transB + " bias=" + withBias + " activation="
                + activation + " then " + fn + (productFirst ? "(product, x)" : "(x, product)");
        assertArrayEquals(separate, fused, what);
        if (fn != BinaryFn.RELU_GRAD) {
            // Relu's gradient steps at zero, where the backends' rounding of the product may differ.
            assertClose(what + " vs reference", reference, fused, 1e-4f, 1e-5f * k + 1e-4f);
        }
    }

    /** The two passes the fused kernels replace, as the planner would bind them. */
    private static void biasThenActivation(Kernels k, float[] y, int yOff, int rows, int cols, float[] bias,
                                           UnaryFn fn, float alpha) {
        if (bias != null) {
            k.binary(BinaryFn.ADD, 0f, y, yOff, new int[] {cols, 1}, bias, 2, new int[] {0, 1}, y, yOff,
                    new int[] {rows, cols});
        }
        if (fn != null) {
            k.unary(fn, alpha, y, yOff, y, yOff, rows * cols);
        }
    }

    @Test
    void convolutionWithBiasAndActivationIsConvolutionThenAddThenActivation() {
        ConvGeometry[] convs = {
            new ConvGeometry(1, 3, 3, 1, 3, 3, 1, 1, 1, 0, 0, 1, 1),
            new ConvGeometry(2, 7, 9, 3, 3, 3, 7, 1, 1, 0, 0, 5, 7),
            new ConvGeometry(3, 5, 5, 4, 1, 1, 6, 1, 1, 0, 0, 5, 5),
            new ConvGeometry(1, 6, 8, 1, 5, 3, 129, 1, 1, 2, 1, 6, 8),
            new ConvGeometry(8, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
            new ConvGeometry(16, 13, 13, 32, 3, 3, 64, 1, 1, 0, 0, 11, 11),
        };
        withBudgets(() -> {
            for (ConvGeometry g : convs) {
                for (UnaryFn fn : ACTIVATIONS) {
                    for (boolean withBias : new boolean[] {true, false}) {
                        checkConv(g, withBias, fn);
                    }
                }
            }
        });
    }

    private void checkConv(ConvGeometry g, boolean withBias, UnaryFn fn) {
        int oc = g.outChannels();
        int rows = g.batch() * g.outH() * g.outW();
        float[] x = uniform(random, 3 + g.batch() * g.height() * g.width() * g.channels(), -1, 1);
        float[] w = uniform(random, 5 + g.kernelH() * g.kernelW() * g.channels() * oc, -1, 1);
        float[] bias = withBias ? uniform(random, 2 + oc, -1, 1) : null;
        float[] separate = uniform(random, 1 + rows * oc + 3, -1, 1);
        float[] fused = separate.clone();
        float[] reference = separate.clone();
        VECTOR.conv2d(g, x, 3, w, 5, separate, 1);
        biasThenActivation(VECTOR, separate, 1, rows, oc, bias, fn, 0.2f);
        VECTOR.conv2dBiasActivation(g, x, 3, w, 5, bias, 2, fn, 0.2f, fused, 1);
        SCALAR.conv2dBiasActivation(g, x, 3, w, 5, bias, 2, fn, 0.2f, reference, 1);
        String what = "conv2d " + g + " bias=" + withBias + " fn=" + fn;
        assertArrayEquals(separate, fused, what);
        assertClose(what + " vs reference", reference, fused, 1e-4f,
                VectorWinogradConvTest.tolerance(g, reference, 1e-4f));
    }

    @Test
    void gatedMaxPoolBackwardIsMaxPoolBackwardThenTheGradient() {
        PoolGeometry[] pools = {
            new PoolGeometry(1, 2, 2, 1, 2, 2, 2, 2, 0, 0, 1, 1),
            new PoolGeometry(2, 5, 5, 7, 2, 2, 2, 2, 0, 0, 2, 2),
            new PoolGeometry(2, 4, 4, 129, 2, 2, 2, 2, 0, 0, 2, 2),
            new PoolGeometry(1, 7, 6, 40, 3, 3, 2, 2, 1, 1, 4, 3),
            new PoolGeometry(32, 26, 26, 32, 2, 2, 2, 2, 0, 0, 13, 13),
            new PoolGeometry(16, 11, 11, 64, 2, 2, 2, 2, 0, 0, 5, 5),
            new PoolGeometry(3, 6, 4, 64, 2, 2, 2, 2, 0, 0, 3, 2),
            new PoolGeometry(2, 8, 8, 16, 2, 2, 2, 2, 0, 0, 4, 4),
        };
        withBudgets(() -> {
            for (PoolGeometry g : pools) {
                for (BinaryFn fn : GRADIENTS) {
                    checkPool(g, fn);
                }
                checkPoolGatedByItsInput(g);
            }
        });
    }

    /** Relu's gradient gated by the pooled x itself (relu's output, as the planner binds it). */
    private void checkPoolGatedByItsInput(PoolGeometry g) {
        int size = g.batch() * g.height() * g.width() * g.channels();
        int[] shape = {size};
        int[] strides = {1};
        // Values -2..1: ties, zeros and negatives, so that x > 0 decides for some maxima and not for others.
        float[] x = levels(random, 3 + size, 4);
        for (int i = 0; i < x.length; i++) {
            x[i] -= 2f;
        }
        float[] dy = uniform(random, 2 + g.batch() * g.outH() * g.outW() * g.channels(), -1, 1);
        float[] separate = uniform(random, 4 + size + 5, -1, 1);
        float[] fused = separate.clone();
        float[] cells = poolCells(g, x);
        VECTOR.maxPool2dBackward(g, cells, 1, dy, 2, separate, 4);
        VECTOR.binary(BinaryFn.RELU_GRAD, 0f, x, 3, strides, separate, 4, strides, separate, 4, shape);
        VECTOR.maxPool2dBackwardGated(g, cells, 1, dy, 2, BinaryFn.RELU_GRAD, 0f, null, 0, fused, 4);
        assertArrayEquals(separate, fused, "max pool backward " + g + " gated by relu of its own input");
        float[] reference = separate.clone();
        SCALAR.maxPool2dBackwardGated(g, poolCellsScalar(g, x), 1, dy, 2, BinaryFn.RELU_GRAD, 0f, null, 0,
                reference, 4);
        assertArrayEquals(reference, fused, "max pool backward " + g + " gated by its cells, against scalar");
    }

    /** The vector kernel's cells of pooling {@code x} (from offset 3), at offset 1 of the array returned. */
    private static float[] poolCells(PoolGeometry g, float[] x) {
        return cellsOf(VECTOR, g, x);
    }

    /** As {@link #poolCells}, by the scalar kernel. */
    private static float[] poolCellsScalar(PoolGeometry g, float[] x) {
        return cellsOf(SCALAR, g, x);
    }

    private static float[] cellsOf(Kernels k, PoolGeometry g, float[] x) {
        int size = g.batch() * g.outH() * g.outW() * g.channels();
        float[] cells = new float[1 + size];
        k.maxPool2d(g, x, 3, new float[size], 0, cells, 1);
        return cells;
    }

    private void checkPool(PoolGeometry g, BinaryFn fn) {
        int size = g.batch() * g.height() * g.width() * g.channels();
        int[] shape = {size};
        int[] strides = {1};
        float[] x = levels(random, 3 + size, 4);
        float[] dy = uniform(random, 2 + g.batch() * g.outH() * g.outW() * g.channels(), -1, 1);
        float[] gate = uniform(random, 6 + size, -1, 1);
        float[] separate = uniform(random, 4 + size + 5, -1, 1);
        float[] fused = separate.clone();
        float[] reference = separate.clone();
        float[] cells = poolCells(g, x);
        VECTOR.maxPool2dBackward(g, cells, 1, dy, 2, separate, 4);
        VECTOR.binary(fn, 0.2f, gate, 6, strides, separate, 4, strides, separate, 4, shape);
        VECTOR.maxPool2dBackwardGated(g, cells, 1, dy, 2, fn, 0.2f, gate, 6, fused, 4);
        SCALAR.maxPool2dBackwardGated(g, poolCellsScalar(g, x), 1, dy, 2, fn, 0.2f, gate, 6, reference, 4);
        String what = "max pool backward " + g + " gated by " + fn;
        assertArrayEquals(separate, fused, what);
        assertClose(what + " vs reference", reference, fused, 1e-5f, 1e-6f);
    }
}
