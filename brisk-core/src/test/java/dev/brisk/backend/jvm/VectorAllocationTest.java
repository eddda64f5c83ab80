package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.BinaryFn;
import dev.brisk.backend.Kernels;
import dev.brisk.backend.Kernels.ConvGeometry;
import dev.brisk.backend.Kernels.PoolGeometry;
import dev.brisk.backend.ReduceFn;
import dev.brisk.backend.UnaryFn;
import dev.brisk.parallel.ThreadBudget;
import java.lang.management.ManagementFactory;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Once compiled, the hot vector kernels allocate nothing per call: scratch is reused and every vector and mask
 * stays in registers (a kernel that allocates here has usually lost its Vector API intrinsics, and is slow).
 */
class VectorAllocationTest {
    private final Kernels k = new VectorKernels();

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void hotKernelsDoNotAllocateOnceCompiled() {
        ThreadBudget.set(1); // no parallel regions: everything runs, and is counted, on this thread
        Random random = new Random(3);
        float[] a = Arrays2.uniform(random, 64 * 64, -1, 1);
        float[] b = Arrays2.uniform(random, 64 * 64, -1, 1);
        float[] c = new float[64 * 64];
        float[] p = Arrays2.uniform(random, 1000, -1, 1);
        float[] m = new float[1000];
        float[] v = new float[1000];
        ConvGeometry conv = new ConvGeometry(2, 8, 8, 3, 3, 3, 8, 1, 1, 1, 1, 8, 8);
        ConvGeometry conv1 = new ConvGeometry(2, 8, 8, 1, 3, 3, 8, 1, 1, 0, 0, 6, 6);
        PoolGeometry pool = new PoolGeometry(2, 8, 8, 8, 2, 2, 2, 2, 0, 0, 4, 4);
        int[] shape = {40, 50};
        int[] rowStrides = {50, 1};
        int[] biasStrides = {0, 1};
        boolean[] leading = {true, false};
        UnaryFn[] unaryFns = UnaryFn.values(); // values() clones its array: keep that out of the count
        BinaryFn[] binaryFns = BinaryFn.values();
        Runnable calls = () -> {
            for (int flags = 0; flags < 4; flags++) {
                k.gemm((flags & 1) != 0, (flags & 2) != 0, 37, 41, 43, a, 1, 64, b, 2, 64, c, 3, 64, true);
            }
            k.gemm(false, false, 5, 40, 100, a, 0, 100, b, 0, 40, c, 0, 40, false);
            k.conv2d(conv, a, 0, b, 0, c, 0);
            k.conv2dBackwardInput(conv, c, 0, b, 0, a, 0);
            k.conv2dBackwardFilter(conv, a, 0, c, 0, b, 0);
            k.conv2d(conv1, a, 0, b, 0, c, 0);
            k.conv2dBackwardFilter(conv1, a, 0, c, 0, b, 0);
            k.maxPool2d(pool, a, 0, c, 0);
            k.maxPool2dBackward(pool, a, 0, c, 0, b, 0);
            k.maxPool2dBackwardGated(pool, a, 0, c, 0, BinaryFn.RELU_GRAD, 0f, a, 0, b, 0);
            k.maxPool2dBackwardGated(pool, a, 0, c, 0, BinaryFn.TANH_GRAD, 0f, c, 0, b, 0);
            k.conv2dBiasActivation(conv, a, 0, b, 0, p, 0, UnaryFn.RELU, 0f, c, 0);
            k.conv2dBiasActivation(conv1, a, 0, b, 0, p, 0, UnaryFn.TANH, 0f, c, 0);
            k.gemmBiasActivation(false, false, 37, 41, 43, a, 1, 64, b, 2, 64, p, 0, UnaryFn.RELU, 0f, c, 3, 64);
            k.avgPool2d(pool, a, 0, c, 0);
            k.avgPool2dBackward(pool, c, 0, b, 0);
            for (UnaryFn fn : unaryFns) {
                k.unary(fn, 0.1f, a, 0, c, 0, 999);
            }
            for (BinaryFn fn : binaryFns) {
                k.binary(fn, 0.1f, a, 0, rowStrides, b, 0, biasStrides, c, 0, shape);
                k.binary(fn, 0.1f, a, 0, rowStrides, b, 0, rowStrides, c, 0, shape);
            }
            k.reduce(ReduceFn.SUM, a, 0, shape, leading, c, 0);
            k.softmax(true, a, 0, c, 0, 40, 50);
            k.softmaxBackward(true, c, 0, b, 0, a, 0, 40, 50);
            k.adamStep(p, 0, a, 0, m, 0, v, 0, 1000, 1e-3f, 0.9f, 0.999f, 1e-7f, 0f);
            k.sgdStep(p, 0, a, 0, v, 0, 1000, 1e-3f, 0.9f, true);
            k.rmspropStep(p, 0, a, 0, m, 0, 1000, 1e-3f, 0.9f, 1e-7f);
            // Keep values finite however often this runs.
            java.util.Arrays.fill(a, 0.5f);
            java.util.Arrays.fill(b, 0.25f);
            java.util.Arrays.fill(p, 0.5f);
        };
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long best = Long.MAX_VALUE;
        // Compilation happens in the background: measure after each round of warm-up, keep the best round.
        for (int round = 0; round < 20 && best > 0; round++) {
            for (int i = 0; i < 300; i++) {
                calls.run();
            }
            long before = bean.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 50; i++) {
                calls.run();
            }
            best = Math.min(best, (bean.getThreadAllocatedBytes(tid) - before) / 50);
        }
        assertTrue(best == 0, "one pass over the hot kernels allocated " + best + " bytes");
    }
}
