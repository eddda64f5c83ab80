package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.uniform;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * gemm cut into grids of blocks ({@link GemmSplit}) on budgets of up to 16 threads: the same bits as one thread, for
 * every transpose and with the fused bias and relu, and the grids the cost model picks for the reference workloads.
 */
class GemmSplitTest {
    private static final Kernels VECTOR = new VectorKernels();

    @AfterEach
    void reset() {
        ThreadBudget.reset();
    }

    @Test
    void everyBudgetGivesTheBitsOfOneThread() {
        Random r = new Random(11);
        // W1's and W2's products, awkward sizes that leave partial tiles and uneven groups, and an A too large for
        // a column split (the grid takes it).
        int[][] shapes = {{128, 512, 784}, {784, 512, 128}, {128, 128, 1600}, {128, 512, 10}, {97, 200, 333},
            {61, 75, 19}, {1100, 300, 250}};
        for (int[] s : shapes) {
            int m = s[0];
            int n = s[1];
            int k = s[2];
            for (int t = 0; t < 4; t++) {
                boolean ta = (t & 1) != 0;
                boolean tb = (t & 2) != 0;
                float[] a = uniform(r, m * k, -1, 1);
                float[] b = uniform(r, k * n, -1, 1);
                float[] bias = uniform(r, n, -1, 1);
                float[][] one = run(1, ta, tb, m, n, k, a, b, bias);
                for (int threads : new int[] {2, 3, 4, 5, 8, 12, 16}) {
                    float[][] many = run(threads, ta, tb, m, n, k, a, b, bias);
                    String what = m + "x" + n + "x" + k + " transA=" + ta + " transB=" + tb + " on " + threads
                            + " threads";
                    assertArrayEquals(one[0], many[0], "gemm " + what);
                    assertArrayEquals(one[1], many[1], "gemm+bias+relu " + what);
                }
            }
        }
    }

    private static float[][] run(int threads, boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b,
                                 float[] bias) {
        ThreadBudget.set(threads);
        float[] c = new float[m * n];
        VECTOR.gemm(ta, tb, m, n, k, a, 0, ta ? m : k, b, 0, tb ? k : n, c, 0, n, false);
        float[] fused = new float[m * n];
        VECTOR.gemmBiasActivation(ta, tb, m, n, k, a, 0, ta ? m : k, b, 0, tb ? k : n, bias, 0, UnaryFn.RELU, 0f,
                fused, 0, n);
        return new float[][] {c, fused};
    }

    @Test
    void twoThreadsKeepTheRowSplitForTheWorkloadsNarrowProducts() {
        // Shapes that reach the grid at two threads (fewer than eight column panels): the row split as before.
        int[][] shapes = {{128, 10, 512}, {512, 10, 128}, {128, 128, 1600}, {1600, 128, 128}, {128, 10, 128}};
        for (int[] s : shapes) {
            assertEquals(1, GemmSplit.columnGroups(s[0], s[1], s[2], false, 2), s[0] + "x" + s[1] + "x" + s[2]);
        }
    }

    @Test
    void onlyAnAThatStaysInCacheIsReadByEveryColumnChunk() {
        // W1's products keep the column split; the transformer's 8192-row activations and its weight gradients'
        // 128x8192 A take the grid.
        assertTrue(GemmSplit.chunksRereadA(128, 784));
        assertTrue(GemmSplit.chunksRereadA(784, 128));
        assertTrue(GemmSplit.chunksRereadA(512, 512));
        assertFalse(GemmSplit.chunksRereadA(8192, 128));
        assertFalse(GemmSplit.chunksRereadA(128, 8192));
    }

    @Test
    void manyThreadsSplitTheFirstLayersColumnsInsteadOfEachReadingAllWeights() {
        // W1's first-layer product on 16 threads: split by rows, each thread would move all 784x512 weights.
        int cols = GemmSplit.columnGroups(128, 512, 784, false, 16);
        assertEquals(16, cols);
        assertEquals(1, GemmSplit.rowGroups(128, cols, 16));
        assertTrue(GemmSplit.cost(1, 16, 128, 512, 784, false) < GemmSplit.cost(16, 1, 128, 512, 784, false) / 1.5);
    }
}
