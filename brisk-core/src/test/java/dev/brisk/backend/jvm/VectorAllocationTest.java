package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.ThreadBudget;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
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
        // Each call is its own lambda, reached through one call site that sees them all, so that C2 compiles the
        // kernels as the plan's instructions reach them (not all inlined into one test method), and a failure can
        // name the kernels that allocate.
        Map<String, Runnable> calls = new LinkedHashMap<>();
        for (int flags = 0; flags < 4; flags++) {
            boolean ta = (flags & 1) != 0;
            boolean tb = (flags & 2) != 0;
            calls.put("gemm " + flags, () -> k.gemm(ta, tb, 37, 41, 43, a, 1, 64, b, 2, 64, c, 3, 64, true));
        }
        calls.put("gemm 5x40x100", () -> k.gemm(false, false, 5, 40, 100, a, 0, 100, b, 0, 40, c, 0, 40, false));
        calls.put("conv2d", () -> k.conv2d(conv, a, 0, b, 0, c, 0));
        calls.put("conv2dBackwardInput", () -> k.conv2dBackwardInput(conv, c, 0, b, 0, a, 0));
        calls.put("conv2dBackwardFilter", () -> k.conv2dBackwardFilter(conv, a, 0, c, 0, b, 0));
        calls.put("conv2d 1 channel", () -> k.conv2d(conv1, a, 0, b, 0, c, 0));
        calls.put("conv2dBackwardFilter 1 channel", () -> k.conv2dBackwardFilter(conv1, a, 0, c, 0, b, 0));
        calls.put("maxPool2d", () -> k.maxPool2d(pool, a, 0, c, 0));
        calls.put("maxPool2d with cells", () -> k.maxPool2d(pool, a, 0, c, 0, p, 0));
        calls.put("maxPool2dBackward", () -> k.maxPool2dBackward(pool, p, 0, c, 0, b, 0));
        calls.put("maxPool2dBackwardGated relu by cells",
                () -> k.maxPool2dBackwardGated(pool, p, 0, c, 0, BinaryFn.RELU_GRAD, 0f, null, 0, b, 0));
        calls.put("maxPool2dBackwardGated relu",
                () -> k.maxPool2dBackwardGated(pool, p, 0, c, 0, BinaryFn.RELU_GRAD, 0f, a, 0, b, 0));
        calls.put("maxPool2dBackwardGated tanh",
                () -> k.maxPool2dBackwardGated(pool, p, 0, c, 0, BinaryFn.TANH_GRAD, 0f, c, 0, b, 0));
        calls.put("conv2dBiasActivationMaxPool",
                () -> k.conv2dBiasActivationMaxPool(conv, a, 0, b, 0, p, 0, UnaryFn.RELU, 0f, pool, c, 0, m, 0));
        ConvGeometry firstConv = new ConvGeometry(2, 8, 8, 1, 3, 3, 32, 1, 1, 0, 0, 6, 6);
        PoolGeometry firstPool = new PoolGeometry(2, 6, 6, 32, 2, 2, 2, 2, 0, 0, 3, 3);
        calls.put("channelSumsOfPooledGradient",
                () -> k.channelSumsOfPooledGradient(firstPool, p, 0, b, 0, m, 0));
        calls.put("conv2dBackwardFilterOfPooledGradient",
                () -> k.conv2dBackwardFilterOfPooledGradient(firstConv, a, 0, firstPool, p, 0, b, 0, v, 0));
        ConvGeometry deep = new ConvGeometry(2, 6, 6, 16, 3, 3, 16, 1, 1, 1, 1, 6, 6);
        PoolGeometry deepPool = new PoolGeometry(2, 6, 6, 16, 2, 2, 2, 2, 0, 0, 3, 3);
        calls.put("conv2dBiasActivationMaxPool through columns",
                () -> k.conv2dBiasActivationMaxPool(deep, a, 0, b, 0, p, 0, UnaryFn.RELU, 0f, deepPool, c, 0, m, 0));
        // One vector of channels: VectorNarrowConv's row kernels, the padded copy, the transposed geometry.
        int lanes = FloatVector.SPECIES_PREFERRED.length();
        ConvGeometry narrow = new ConvGeometry(1, 16, 16, lanes, 3, 3, lanes, 1, 1, 1, 1, 16, 16);
        PoolGeometry narrowPool = new PoolGeometry(1, 16, 16, lanes, 2, 2, 2, 2, 0, 0, 8, 8);
        float[] narrowCells = new float[64 * lanes];
        calls.put("conv2d narrow", () -> k.conv2d(narrow, a, 0, b, 0, c, 0));
        calls.put("conv2dBackwardInput narrow", () -> k.conv2dBackwardInput(narrow, c, 0, b, 0, a, 0));
        calls.put("conv2dBackwardFilter narrow", () -> k.conv2dBackwardFilter(narrow, a, 0, c, 0, b, 0));
        calls.put("conv2dBiasActivationMaxPool narrow", () -> k.conv2dBiasActivationMaxPool(narrow, a, 0, b, 0, p,
                0, UnaryFn.RELU, 0f, narrowPool, c, 0, narrowCells, 0));
        // One gemm panel of channels: the implicit convolution's gradients, their geometries taking turns with the
        // narrow one's in the per-thread cache of transposed convolutions.
        int panel = VectorGemm.NR;
        ConvGeometry wide = new ConvGeometry(1, 8, 8, panel, 3, 3, panel, 1, 1, 1, 1, 8, 8);
        float[] wideX = Arrays2.uniform(random, 64 * panel, -1, 1);
        float[] wideW = Arrays2.uniform(random, 9 * panel * panel, -1, 1);
        float[] wideY = new float[64 * panel];
        float[] wideDw = new float[9 * panel * panel];
        calls.put("conv2dBackwardInput implicit", () -> k.conv2dBackwardInput(wide, wideY, 0, wideW, 0, wideX, 0));
        calls.put("conv2dBackwardFilter implicit",
                () -> k.conv2dBackwardFilter(wide, wideX, 0, wideY, 0, wideDw, 0));
        calls.put("conv2dBiasActivation relu",
                () -> k.conv2dBiasActivation(conv, a, 0, b, 0, p, 0, UnaryFn.RELU, 0f, c, 0));
        calls.put("conv2dBiasActivation tanh",
                () -> k.conv2dBiasActivation(conv1, a, 0, b, 0, p, 0, UnaryFn.TANH, 0f, c, 0));
        calls.put("gemmBiasActivation", () -> k.gemmBiasActivation(false, false, 37, 41, 43, a, 1, 64, b, 2, 64, p,
                0, UnaryFn.RELU, 0f, c, 3, 64));
        calls.put("avgPool2d", () -> k.avgPool2d(pool, a, 0, c, 0));
        calls.put("avgPool2dBackward", () -> k.avgPool2dBackward(pool, c, 0, b, 0));
        for (UnaryFn fn : UnaryFn.values()) {
            calls.put("unary " + fn, () -> k.unary(fn, 0.1f, a, 0, c, 0, 999));
        }
        for (BinaryFn fn : BinaryFn.values()) {
            calls.put("binary " + fn + " by row", () -> k.binary(fn, 0.1f, a, 0, rowStrides, b, 0, biasStrides, c, 0,
                    shape));
            calls.put("binary " + fn, () -> k.binary(fn, 0.1f, a, 0, rowStrides, b, 0, rowStrides, c, 0, shape));
        }
        calls.put("reduce", () -> k.reduce(ReduceFn.SUM, a, 0, shape, leading, c, 0));
        calls.put("softmax", () -> k.softmax(true, a, 0, c, 0, 40, 50));
        calls.put("softmaxBackward", () -> k.softmaxBackward(true, c, 0, b, 0, a, 0, 40, 50));
        calls.put("adamStep", () -> k.adamStep(p, 0, a, 0, m, 0, v, 0, 1000, 1e-3f, 0.9f, 0.999f, 1e-7f, 0f));
        calls.put("sgdStep", () -> k.sgdStep(p, 0, a, 0, v, 0, 1000, 1e-3f, 0.9f, true, 0f));
        calls.put("rmspropStep", () -> k.rmspropStep(p, 0, a, 0, m, 0, 1000, 1e-3f, 0.9f, 1e-7f));
        // Keep values finite however often this runs.
        calls.put("reset inputs", () -> {
            Arrays.fill(a, 0.5f);
            Arrays.fill(b, 0.25f);
            Arrays.fill(p, 0.5f);
        });
        Runnable[] each = calls.values().toArray(Runnable[]::new);
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long best = Long.MAX_VALUE;
        // Compilation happens in the background: measure after each round of warm-up, keep the best round.
        for (int round = 0; round < 20 && best > 0; round++) {
            for (int i = 0; i < 300; i++) {
                runAll(each);
            }
            long before = bean.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 50; i++) {
                runAll(each);
            }
            best = Math.min(best, (bean.getThreadAllocatedBytes(tid) - before) / 50);
        }
        if (best > 0) {
            // Name the kernels that still allocate.
            StringBuilder culprits = new StringBuilder();
            for (Map.Entry<String, Runnable> call : calls.entrySet()) {
                long before = bean.getThreadAllocatedBytes(tid);
                for (int i = 0; i < 50; i++) {
                    call.getValue().run();
                }
                long bytes = (bean.getThreadAllocatedBytes(tid) - before) / 50;
                if (bytes > 0) {
                    culprits.append(' ').append(call.getKey()).append(": ").append(bytes);
                }
            }
            assertTrue(best == 0, "one pass over the hot kernels allocated " + best + " bytes;" + culprits);
        }
    }

    /** The one call site every kernel call goes through (see above). */
    private static void runAll(Runnable[] calls) {
        for (Runnable call : calls) {
            call.run();
        }
    }
}
