package dev.brisk.backend.jvm;

import dev.brisk.ops.UnaryFn;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * gemm for a C at most one vector wide (a 10-class output layer and its weight gradient). {@link VectorGemm}'s
 * register tile is two vectors wide, so 10 columns used 10 of its 32 lanes and went through a scratch tile; here a
 * tile is {@link VectorGemm#MR} rows of one vector, stored with a lane mask. The depth blocks and each element's
 * chain of multiply-adds are VectorGemm's, so the result has the same bits.
 */
final class VectorGemmNarrow {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    /** The widest C this path takes. */
    static final int MAX_COLS = S.length();
    private static final int MR = VectorGemm.MR;
    /**
     * Rows of the wide tile: twice {@link #MR}, so that twelve independent multiply-add chains keep both FMA units
     * busy through their four-cycle latency (six chains of one vector reached at most three quarters of the FMA
     * peak, and convolutions with 16 output channels, whose gemm is one vector wide, ran at a third of it). Each
     * element's chain is the same, so the bits are too.
     */
    private static final int WIDE_ROWS = 2 * MR;

    private VectorGemmNarrow() {
    }

    /** {@link VectorGemm#gemmBlock} for {@code j1 - j0 <= MAX_COLS}. */
    static void gemmBlock(GemmArgs g, int i0, int i1, int j0, int j1) {
        boolean transA = g.transA;
        boolean transB = g.transB;
        int k = g.k;
        float[] a = g.a;
        int aOff = g.aOff;
        int lda = g.lda;
        float[] b = g.b;
        int bOff = g.bOff;
        int ldb = g.ldb;
        float[] c = g.c;
        int cOff = g.cOff;
        int ldc = g.ldc;
        boolean accumulate = g.accumulate;
        float[] bias = g.bias;
        int biasOff = g.biasOff;
        UnaryFn fn = g.fn;
        float alpha = g.alpha;
        int cols = j1 - j0;
        boolean epilogue = bias != null || fn != null;
        boolean perTile = epilogue && (fn == null || fn == UnaryFn.RELU) && g.activated == null;
        int kc = VectorGemm.ceilDiv(k, VectorGemm.ceilDiv(k, VectorGemm.KC));
        Scratch scratch = Scratch.get();
        float[] panel = scratch.packB(kc * MAX_COLS);
        float[] tile = scratch.tile(WIDE_ROWS * MAX_COLS);
        // op(A)[i][p] is a[aOff + i * rowStep + p * depthStep].
        int rowStep = transA ? 1 : lda;
        int depthStep = transA ? lda : 1;
        int wideRows = i0 + (i1 - i0) / WIDE_ROWS * WIDE_ROWS;
        int fullRows = wideRows + (i1 - wideRows) / MR * MR;
        for (int pc = 0; pc < k; pc += kc) {
            int kb = Math.min(kc, k - pc);
            pack(transB, b, bOff, ldb, pc, kb, j0, cols, panel);
            boolean add = accumulate || pc > 0;
            boolean tileEpilogue = perTile && pc + kb == k;
            for (int i = i0; i < i1; ) {
                int ai = aOff + i * rowStep + pc * depthStep;
                int ci = cOff + i * ldc + j0;
                int rows = i < wideRows ? WIDE_ROWS : i < fullRows ? MR : 1;
                if (rows == WIDE_ROWS) {
                    wideKernel(kb, a, ai, rowStep, depthStep, panel, tile, c, ci, ldc, add, cols);
                } else if (rows == MR) {
                    kernel(kb, a, ai, rowStep, depthStep, panel, tile, c, ci, ldc, add, cols);
                } else {
                    row(kb, a, ai, depthStep, panel, tile, c, ci, add, cols);
                }
                if (tileEpilogue) {
                    VectorEpilogue.biasRelu(c, ci, ldc, rows, cols, bias, biasOff + j0, fn == UnaryFn.RELU);
                }
                i += rows;
            }
        }
        if (epilogue && !perTile) {
            VectorGemm.blockEpilogue(g, i0, i1, j0, j1);
        }
        VectorGemm.binaryEpilogue(g, i0, i1, j0, j1);
    }

    /** Rows {@code [pc, pc+kb)} of op(B)'s columns {@code [j0, j0+cols)}, each padded with zeros to one vector. */
    private static void pack(boolean transB, float[] b, int bOff, int ldb, int pc, int kb, int j0, int cols,
                             float[] panel) {
        for (int p = 0; p < kb; p++) {
            int dst = p * MAX_COLS;
            for (int j = 0; j < MAX_COLS; j++) {
                panel[dst + j] = j >= cols ? 0f
                        : transB ? b[bOff + (j0 + j) * ldb + pc + p] : b[bOff + (pc + p) * ldb + j0 + j];
            }
        }
    }

    /**
     * {@code C[MR x cols] (+)= A[MR x kb] panel[kb x cols]}, the rows of C {@code ldc} apart. The sums go through a
     * scratch tile rather than being handed to another method (a vector passed to a method C2 does not inline
     * is boxed) or stored with masks here (C1 gave up on this method with them: out of virtual registers, and
     * C2 then never compiled it).
     */
    private static void kernel(int kb, float[] a, int ai, int rowStep, int depthStep, float[] panel, float[] tile,
                               float[] c, int ci, int ldc, boolean add, int cols) {
        int r1 = rowStep;
        int r2 = 2 * rowStep;
        int r3 = 3 * rowStep;
        int r4 = 4 * rowStep;
        int r5 = 5 * rowStep;
        FloatVector c0 = FloatVector.zero(S);
        FloatVector c1 = c0;
        FloatVector c2 = c0;
        FloatVector c3 = c0;
        FloatVector c4 = c0;
        FloatVector c5 = c0;
        for (int p = 0, bi = 0; p < kb; p++, ai += depthStep, bi += MAX_COLS) {
            FloatVector bp = FloatVector.fromArray(S, panel, bi);
            c0 = FloatVector.broadcast(S, a[ai]).fma(bp, c0);
            c1 = FloatVector.broadcast(S, a[ai + r1]).fma(bp, c1);
            c2 = FloatVector.broadcast(S, a[ai + r2]).fma(bp, c2);
            c3 = FloatVector.broadcast(S, a[ai + r3]).fma(bp, c3);
            c4 = FloatVector.broadcast(S, a[ai + r4]).fma(bp, c4);
            c5 = FloatVector.broadcast(S, a[ai + r5]).fma(bp, c5);
        }
        c0.intoArray(tile, 0);
        c1.intoArray(tile, MAX_COLS);
        c2.intoArray(tile, 2 * MAX_COLS);
        c3.intoArray(tile, 3 * MAX_COLS);
        c4.intoArray(tile, 4 * MAX_COLS);
        c5.intoArray(tile, 5 * MAX_COLS);
        merge(tile, MR, cols, c, ci, ldc, add);
    }

    /** {@link #kernel} for {@link #WIDE_ROWS} rows. */
    private static void wideKernel(int kb, float[] a, int ai, int rowStep, int depthStep, float[] panel,
                                   float[] tile, float[] c, int ci, int ldc, boolean add, int cols) {
        int r1 = rowStep;
        int r2 = 2 * rowStep;
        int r3 = 3 * rowStep;
        int r4 = 4 * rowStep;
        int r5 = 5 * rowStep;
        int r6 = 6 * rowStep;
        int r7 = 7 * rowStep;
        int r8 = 8 * rowStep;
        int r9 = 9 * rowStep;
        int r10 = 10 * rowStep;
        int r11 = 11 * rowStep;
        FloatVector c0 = FloatVector.zero(S);
        FloatVector c1 = c0;
        FloatVector c2 = c0;
        FloatVector c3 = c0;
        FloatVector c4 = c0;
        FloatVector c5 = c0;
        FloatVector c6 = c0;
        FloatVector c7 = c0;
        FloatVector c8 = c0;
        FloatVector c9 = c0;
        FloatVector c10 = c0;
        FloatVector c11 = c0;
        for (int p = 0, bi = 0; p < kb; p++, ai += depthStep, bi += MAX_COLS) {
            FloatVector bp = FloatVector.fromArray(S, panel, bi);
            c0 = FloatVector.broadcast(S, a[ai]).fma(bp, c0);
            c1 = FloatVector.broadcast(S, a[ai + r1]).fma(bp, c1);
            c2 = FloatVector.broadcast(S, a[ai + r2]).fma(bp, c2);
            c3 = FloatVector.broadcast(S, a[ai + r3]).fma(bp, c3);
            c4 = FloatVector.broadcast(S, a[ai + r4]).fma(bp, c4);
            c5 = FloatVector.broadcast(S, a[ai + r5]).fma(bp, c5);
            c6 = FloatVector.broadcast(S, a[ai + r6]).fma(bp, c6);
            c7 = FloatVector.broadcast(S, a[ai + r7]).fma(bp, c7);
            c8 = FloatVector.broadcast(S, a[ai + r8]).fma(bp, c8);
            c9 = FloatVector.broadcast(S, a[ai + r9]).fma(bp, c9);
            c10 = FloatVector.broadcast(S, a[ai + r10]).fma(bp, c10);
            c11 = FloatVector.broadcast(S, a[ai + r11]).fma(bp, c11);
        }
        c0.intoArray(tile, 0);
        c1.intoArray(tile, MAX_COLS);
        c2.intoArray(tile, 2 * MAX_COLS);
        c3.intoArray(tile, 3 * MAX_COLS);
        c4.intoArray(tile, 4 * MAX_COLS);
        c5.intoArray(tile, 5 * MAX_COLS);
        c6.intoArray(tile, 6 * MAX_COLS);
        c7.intoArray(tile, 7 * MAX_COLS);
        c8.intoArray(tile, 8 * MAX_COLS);
        c9.intoArray(tile, 9 * MAX_COLS);
        c10.intoArray(tile, 10 * MAX_COLS);
        c11.intoArray(tile, 11 * MAX_COLS);
        merge(tile, WIDE_ROWS, cols, c, ci, ldc, add);
    }

    /** One row of C: the rows left below the last whole tile. */
    private static void row(int kb, float[] a, int ai, int depthStep, float[] panel, float[] tile, float[] c, int ci,
                            boolean add, int cols) {
        FloatVector acc = FloatVector.zero(S);
        for (int p = 0, bi = 0; p < kb; p++, ai += depthStep, bi += MAX_COLS) {
            acc = FloatVector.broadcast(S, a[ai]).fma(FloatVector.fromArray(S, panel, bi), acc);
        }
        acc.intoArray(tile, 0);
        merge(tile, 1, cols, c, ci, 0, add);
    }

    /**
     * {@code C (+)=} the first {@code cols} lanes of each of a scratch tile's {@code rows} rows: masked vectors
     * where a whole vector fits in C's array (a masked access past its end takes the Vector API's slow path, which
     * allocates), one float at a time at the end.
     */
    private static void merge(float[] tile, int rows, int cols, float[] c, int ci, int ldc, boolean add) {
        VectorMask<Float> mask = S.indexInRange(0, cols);
        for (int i = 0; i < rows; i++) {
            int o = ci + i * ldc;
            int t = i * MAX_COLS;
            if (o + MAX_COLS <= c.length) {
                FloatVector v = FloatVector.fromArray(S, tile, t);
                if (add) {
                    v = v.add(FloatVector.fromArray(S, c, o, mask));
                }
                v.intoArray(c, o, mask);
            } else {
                for (int j = 0; j < cols; j++) {
                    c[o + j] = add ? tile[t + j] + c[o + j] : tile[t + j];
                }
            }
        }
    }
}
