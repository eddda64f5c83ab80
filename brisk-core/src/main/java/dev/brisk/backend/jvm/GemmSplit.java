package dev.brisk.backend.jvm;

import dev.brisk.config.Settings;

/**
 * How {@link VectorGemm} cuts C among the threads of a region when C has too few column panels for a column split
 * with several panels per thread: a grid of {@code rowGroups x colGroups} blocks, one per thread, chosen by a cost
 * model of the busiest thread.
 *
 * <p>Every thread packs (or reads in place) the columns of op(B) its block covers and reads the rows of op(A) it
 * covers, on top of its share of the multiply-adds. Split by rows alone, as before, each of T threads moved all of
 * op(B): on a 16-core machine W1's first-layer product (128x784 by 784x512) had every thread stream the 1.6 MB
 * weight matrix for 18 rows of output, and W1 ran slower on 8 threads than on 4 (BENCHMARKS.md, "Sixteen cores").
 * A block's cut changes no bits: each element of C gets the same depth blocks in the same order wherever it lies.
 */
final class GemmSplit {
    /**
     * Flops' worth of time per float a thread moves while packing or reading operands that are not in its own
     * caches: about 100 GFLOP/s of arithmetic per core against 20-25 GB/s from a shared cache.
     */
    static final double FLOPS_PER_FLOAT = 16;
    /** A grid other than a plain row split must be at least this much cheaper to be chosen. */
    static final double MARGIN = 0.9;
    /**
     * The largest op(A), in floats, that {@link VectorGemm}'s column split may have every chunk read again: a core's
     * L2 (1 MiB). A larger A is streamed again from L3 or memory by each of the chunks (a 8192x128 A read by eight
     * chunks moved 32 MB, where a grid moves it once), so such products take the grid.
     */
    static final long REREAD_A_MAX_FLOATS = 1 << 18;
    /** {@code -Dbrisk.gemmGrid=false} keeps the plain row split, to compare against. */
    private static final boolean ENABLED = Settings.gemmGrid();

    private GemmSplit() {
    }

    /**
     * The column groups of the grid for an {@code m x n} C of depth {@code k} on {@code threads} threads (its row
     * groups are {@link #rowGroups}): 1, the plain row split, unless another grid is at least {@link #MARGIN}
     * cheaper for its busiest thread.
     */
    static int columnGroups(int m, int n, int k, boolean transB, int threads) {
        int colTiles = VectorGemm.ceilDiv(n, VectorGemm.NR);
        int best = 1;
        if (!ENABLED) {
            return best;
        }
        double bestCost = cost(rowGroups(m, 1, threads), 1, m, n, k, transB) * MARGIN;
        for (int colGroups = 2; colGroups <= Math.min(threads, colTiles); colGroups++) {
            double c = cost(rowGroups(m, colGroups, threads), colGroups, m, n, k, transB);
            if (c < bestCost) {
                best = colGroups;
                bestCost = c;
            }
        }
        return best;
    }

    /** Whether an {@code m x k} op(A) is small enough for a column split, which has each chunk read all of it. */
    static boolean chunksRereadA(int m, int k) {
        return (long) m * k <= REREAD_A_MAX_FLOATS;
    }

    /** The row groups beside {@code colGroups} column groups: as many as the threads and C's row tiles allow. */
    static int rowGroups(int m, int colGroups, int threads) {
        return Math.max(1, Math.min(threads / colGroups, VectorGemm.ceilDiv(m, VectorGemm.MR)));
    }

    /** The busiest thread's time, in flops: its share of C's arithmetic plus the operands it moves. */
    static double cost(int rowGroups, int colGroups, int m, int n, int k, boolean transB) {
        int rowTiles = VectorGemm.ceilDiv(m, VectorGemm.MR);
        int colTiles = VectorGemm.ceilDiv(n, VectorGemm.NR);
        int rows = Math.min(m, VectorGemm.ceilDiv(rowTiles, rowGroups) * VectorGemm.MR);
        int cols = Math.min(n, VectorGemm.ceilDiv(colTiles, colGroups) * VectorGemm.NR);
        double flops = 2.0 * rows * cols * k;
        // B's block is packed (read and written) unless gemmBlock reads it in place for a few rows.
        double bFloats = (double) cols * k * (VectorGemm.readsBInPlace(transB, rows) ? 1 : 2);
        double aFloats = (double) rows * k;
        return flops + FLOPS_PER_FLOAT * (aFloats + bFloats);
    }
}
