package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register-tiled products of one attention head ({@link VectorAttention}): {@code C (+)= A B} for an
 * {@code m x n} block, {@code A}'s element {@code (i, p)} at {@code a[aOff + i aRow + p aCol]} (so a transposed
 * operand is only other strides), {@code B}'s rows dense along {@code n}. {@link #MR} rows of C by two vectors stay in
 * registers over the whole inner loop; each step broadcasts {@link #MR} A elements and loads two B vectors. A and B
 * are read in place: these products are small (32 to 128 on a side) and their operands already sit in L1 or L2.
 *
 * <p>A causal band: with {@link #COLUMNS} the row tile starting at {@code i} computes only the columns up to
 * {@code diag + i + MR} (the scores a causal row can see, rounded up to the tile); with {@link #INNER_TO} only the
 * inner indexes below {@code diag + i + MR} (the probabilities beyond them are zeros); with {@link #INNER_FROM} only
 * the inner indexes from {@code i - diag} (C's rows are keys, its inner index query rows, and a query row before key
 * {@code i - diag} gives it a zero).
 */
final class AttentionProduct {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /**
     * Rows of the register tile: eight where vectors are 512 bits (sixteen accumulators of the 32 registers, and
     * the row block, 32, is a whole number of tiles, so no row takes the one-row path), else six (gemm's tile, for
     * the sixteen registers of narrower vector sets).
     */
    static final int MR = L >= 16 ? 8 : 6;

    /** Every column and inner index. */
    static final int DENSE = 0;
    /** Columns up to the causal band. */
    static final int COLUMNS = 1;
    /** Inner indexes below the causal band. */
    static final int INNER_TO = 2;
    /** Inner indexes from the causal band on. */
    static final int INNER_FROM = 3;

    private AttentionProduct() {
    }

    /**
     * {@code C = A B}, or {@code C += A B} when {@code accumulate}, within the band {@code band} of {@code diag}.
     */
    static void product(int m, int n, int k, float[] a, int aOff, int aRow, int aCol, float[] b, int bOff, int ldb,
                        float[] c, int cOff, int ldc, boolean accumulate, int band, int diag) {
        for (int i = 0; i < m; i += MR) {
            int rows = Math.min(MR, m - i);
            int colEnd = band == COLUMNS ? Math.min(n, diag + i + rows) : n;
            int p0 = band == INNER_FROM ? Math.clamp(i - diag, 0, k) : 0;
            int p1 = band == INNER_TO ? Math.min(k, diag + i + rows) : k;
            int ai = aOff + i * aRow;
            int ci = cOff + i * ldc;
            int j = 0;
            // With the eight-row tile, a causal band's last vector alone takes the one-vector tile (half the work of
            // a two-vector tile on the diagonal).
            for (; j + 2 * L <= n && (MR == 8 ? j + L < colEnd : j < colEnd); j += 2 * L) {
                if (rows == MR && MR == 8) {
                    tile8(a, ai, aRow, aCol, b, bOff + j, ldb, c, ci + j, ldc, p0, p1, accumulate);
                } else if (rows == MR) {
                    tile6(a, ai, aRow, aCol, b, bOff + j, ldb, c, ci + j, ldc, p0, p1, accumulate);
                } else {
                    for (int r = 0; r < rows; r++) {
                        tile1(a, ai + r * aRow, aCol, b, bOff + j, ldb, c, ci + r * ldc + j, p0, p1, accumulate);
                    }
                }
            }
            for (; j + L <= n && j < colEnd; j += L) {
                if (rows == MR && MR == 8) {
                    tile8x1(a, ai, aRow, aCol, b, bOff + j, ldb, c, ci + j, ldc, p0, p1, accumulate);
                    continue;
                }
                for (int r = 0; r < rows; r++) {
                    vector1(a, ai + r * aRow, aCol, b, bOff + j, ldb, c, ci + r * ldc + j, p0, p1, accumulate);
                }
            }
            for (; j < n && j < colEnd; j++) {
                for (int r = 0; r < rows; r++) {
                    float sum = accumulate ? c[ci + r * ldc + j] : 0f;
                    for (int p = p0; p < p1; p++) {
                        sum = Math.fma(a[ai + r * aRow + p * aCol], b[bOff + p * ldb + j], sum);
                    }
                    c[ci + r * ldc + j] = sum;
                }
            }
        }
    }

    /** Six rows by two vectors of C over inner indexes {@code [p0, p1)}: twelve independent FMA chains. */
    private static void tile6(float[] a, int ai, int aRow, int aCol, float[] b, int bj, int ldb, float[] c, int cj,
                              int ldc, int p0, int p1, boolean accumulate) {
        FloatVector c00;
        FloatVector c01;
        FloatVector c10;
        FloatVector c11;
        FloatVector c20;
        FloatVector c21;
        FloatVector c30;
        FloatVector c31;
        FloatVector c40;
        FloatVector c41;
        FloatVector c50;
        FloatVector c51;
        if (accumulate) {
            c00 = FloatVector.fromArray(S, c, cj);
            c01 = FloatVector.fromArray(S, c, cj + L);
            c10 = FloatVector.fromArray(S, c, cj + ldc);
            c11 = FloatVector.fromArray(S, c, cj + ldc + L);
            c20 = FloatVector.fromArray(S, c, cj + 2 * ldc);
            c21 = FloatVector.fromArray(S, c, cj + 2 * ldc + L);
            c30 = FloatVector.fromArray(S, c, cj + 3 * ldc);
            c31 = FloatVector.fromArray(S, c, cj + 3 * ldc + L);
            c40 = FloatVector.fromArray(S, c, cj + 4 * ldc);
            c41 = FloatVector.fromArray(S, c, cj + 4 * ldc + L);
            c50 = FloatVector.fromArray(S, c, cj + 5 * ldc);
            c51 = FloatVector.fromArray(S, c, cj + 5 * ldc + L);
        } else {
            c00 = FloatVector.zero(S);
            c01 = c00;
            c10 = c00;
            c11 = c00;
            c20 = c00;
            c21 = c00;
            c30 = c00;
            c31 = c00;
            c40 = c00;
            c41 = c00;
            c50 = c00;
            c51 = c00;
        }
        for (int p = p0; p < p1; p++) {
            int bp = bj + p * ldb;
            FloatVector b0 = FloatVector.fromArray(S, b, bp);
            FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
            int ap = ai + p * aCol;
            FloatVector a0 = FloatVector.broadcast(S, a[ap]);
            c00 = a0.fma(b0, c00);
            c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, a[ap + aRow]);
            c10 = a1.fma(b0, c10);
            c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, a[ap + 2 * aRow]);
            c20 = a2.fma(b0, c20);
            c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, a[ap + 3 * aRow]);
            c30 = a3.fma(b0, c30);
            c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, a[ap + 4 * aRow]);
            c40 = a4.fma(b0, c40);
            c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, a[ap + 5 * aRow]);
            c50 = a5.fma(b0, c50);
            c51 = a5.fma(b1, c51);
        }
        c00.intoArray(c, cj);
        c01.intoArray(c, cj + L);
        c10.intoArray(c, cj + ldc);
        c11.intoArray(c, cj + ldc + L);
        c20.intoArray(c, cj + 2 * ldc);
        c21.intoArray(c, cj + 2 * ldc + L);
        c30.intoArray(c, cj + 3 * ldc);
        c31.intoArray(c, cj + 3 * ldc + L);
        c40.intoArray(c, cj + 4 * ldc);
        c41.intoArray(c, cj + 4 * ldc + L);
        c50.intoArray(c, cj + 5 * ldc);
        c51.intoArray(c, cj + 5 * ldc + L);
    }

    /** Eight rows by two vectors of C over inner indexes {@code [p0, p1)}: sixteen independent FMA chains. */
    private static void tile8(float[] a, int ai, int aRow, int aCol, float[] b, int bj, int ldb, float[] c, int cj,
                              int ldc, int p0, int p1, boolean accumulate) {
        FloatVector c00;
        FloatVector c01;
        FloatVector c10;
        FloatVector c11;
        FloatVector c20;
        FloatVector c21;
        FloatVector c30;
        FloatVector c31;
        FloatVector c40;
        FloatVector c41;
        FloatVector c50;
        FloatVector c51;
        FloatVector c60;
        FloatVector c61;
        FloatVector c70;
        FloatVector c71;
        if (accumulate) {
            c00 = FloatVector.fromArray(S, c, cj);
            c01 = FloatVector.fromArray(S, c, cj + L);
            c10 = FloatVector.fromArray(S, c, cj + ldc);
            c11 = FloatVector.fromArray(S, c, cj + ldc + L);
            c20 = FloatVector.fromArray(S, c, cj + 2 * ldc);
            c21 = FloatVector.fromArray(S, c, cj + 2 * ldc + L);
            c30 = FloatVector.fromArray(S, c, cj + 3 * ldc);
            c31 = FloatVector.fromArray(S, c, cj + 3 * ldc + L);
            c40 = FloatVector.fromArray(S, c, cj + 4 * ldc);
            c41 = FloatVector.fromArray(S, c, cj + 4 * ldc + L);
            c50 = FloatVector.fromArray(S, c, cj + 5 * ldc);
            c51 = FloatVector.fromArray(S, c, cj + 5 * ldc + L);
            c60 = FloatVector.fromArray(S, c, cj + 6 * ldc);
            c61 = FloatVector.fromArray(S, c, cj + 6 * ldc + L);
            c70 = FloatVector.fromArray(S, c, cj + 7 * ldc);
            c71 = FloatVector.fromArray(S, c, cj + 7 * ldc + L);
        } else {
            c00 = FloatVector.zero(S);
            c01 = c00;
            c10 = c00;
            c11 = c00;
            c20 = c00;
            c21 = c00;
            c30 = c00;
            c31 = c00;
            c40 = c00;
            c41 = c00;
            c50 = c00;
            c51 = c00;
            c60 = c00;
            c61 = c00;
            c70 = c00;
            c71 = c00;
        }
        for (int p = p0; p < p1; p++) {
            int bp = bj + p * ldb;
            FloatVector b0 = FloatVector.fromArray(S, b, bp);
            FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
            int ap = ai + p * aCol;
            FloatVector a0 = FloatVector.broadcast(S, a[ap]);
            c00 = a0.fma(b0, c00);
            c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, a[ap + aRow]);
            c10 = a1.fma(b0, c10);
            c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, a[ap + 2 * aRow]);
            c20 = a2.fma(b0, c20);
            c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, a[ap + 3 * aRow]);
            c30 = a3.fma(b0, c30);
            c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, a[ap + 4 * aRow]);
            c40 = a4.fma(b0, c40);
            c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, a[ap + 5 * aRow]);
            c50 = a5.fma(b0, c50);
            c51 = a5.fma(b1, c51);
            FloatVector a6 = FloatVector.broadcast(S, a[ap + 6 * aRow]);
            c60 = a6.fma(b0, c60);
            c61 = a6.fma(b1, c61);
            FloatVector a7 = FloatVector.broadcast(S, a[ap + 7 * aRow]);
            c70 = a7.fma(b0, c70);
            c71 = a7.fma(b1, c71);
        }
        c00.intoArray(c, cj);
        c01.intoArray(c, cj + L);
        c10.intoArray(c, cj + ldc);
        c11.intoArray(c, cj + ldc + L);
        c20.intoArray(c, cj + 2 * ldc);
        c21.intoArray(c, cj + 2 * ldc + L);
        c30.intoArray(c, cj + 3 * ldc);
        c31.intoArray(c, cj + 3 * ldc + L);
        c40.intoArray(c, cj + 4 * ldc);
        c41.intoArray(c, cj + 4 * ldc + L);
        c50.intoArray(c, cj + 5 * ldc);
        c51.intoArray(c, cj + 5 * ldc + L);
        c60.intoArray(c, cj + 6 * ldc);
        c61.intoArray(c, cj + 6 * ldc + L);
        c70.intoArray(c, cj + 7 * ldc);
        c71.intoArray(c, cj + 7 * ldc + L);
    }

    /** Eight rows by one vector of C over inner indexes {@code [p0, p1)}: eight independent FMA chains. */
    private static void tile8x1(float[] a, int ai, int aRow, int aCol, float[] b, int bj, int ldb, float[] c, int cj,
                                int ldc, int p0, int p1, boolean accumulate) {
        FloatVector c0;
        FloatVector c1;
        FloatVector c2;
        FloatVector c3;
        FloatVector c4;
        FloatVector c5;
        FloatVector c6;
        FloatVector c7;
        if (accumulate) {
            c0 = FloatVector.fromArray(S, c, cj);
            c1 = FloatVector.fromArray(S, c, cj + ldc);
            c2 = FloatVector.fromArray(S, c, cj + 2 * ldc);
            c3 = FloatVector.fromArray(S, c, cj + 3 * ldc);
            c4 = FloatVector.fromArray(S, c, cj + 4 * ldc);
            c5 = FloatVector.fromArray(S, c, cj + 5 * ldc);
            c6 = FloatVector.fromArray(S, c, cj + 6 * ldc);
            c7 = FloatVector.fromArray(S, c, cj + 7 * ldc);
        } else {
            c0 = FloatVector.zero(S);
            c1 = c0;
            c2 = c0;
            c3 = c0;
            c4 = c0;
            c5 = c0;
            c6 = c0;
            c7 = c0;
        }
        for (int p = p0; p < p1; p++) {
            FloatVector b0 = FloatVector.fromArray(S, b, bj + p * ldb);
            int ap = ai + p * aCol;
            c0 = FloatVector.broadcast(S, a[ap]).fma(b0, c0);
            c1 = FloatVector.broadcast(S, a[ap + aRow]).fma(b0, c1);
            c2 = FloatVector.broadcast(S, a[ap + 2 * aRow]).fma(b0, c2);
            c3 = FloatVector.broadcast(S, a[ap + 3 * aRow]).fma(b0, c3);
            c4 = FloatVector.broadcast(S, a[ap + 4 * aRow]).fma(b0, c4);
            c5 = FloatVector.broadcast(S, a[ap + 5 * aRow]).fma(b0, c5);
            c6 = FloatVector.broadcast(S, a[ap + 6 * aRow]).fma(b0, c6);
            c7 = FloatVector.broadcast(S, a[ap + 7 * aRow]).fma(b0, c7);
        }
        c0.intoArray(c, cj);
        c1.intoArray(c, cj + ldc);
        c2.intoArray(c, cj + 2 * ldc);
        c3.intoArray(c, cj + 3 * ldc);
        c4.intoArray(c, cj + 4 * ldc);
        c5.intoArray(c, cj + 5 * ldc);
        c6.intoArray(c, cj + 6 * ldc);
        c7.intoArray(c, cj + 7 * ldc);
    }

    /** One row by two vectors of C. */
    private static void tile1(float[] a, int ai, int aCol, float[] b, int bj, int ldb, float[] c, int cj, int p0,
                              int p1, boolean accumulate) {
        FloatVector c0 = accumulate ? FloatVector.fromArray(S, c, cj) : FloatVector.zero(S);
        FloatVector c1 = accumulate ? FloatVector.fromArray(S, c, cj + L) : FloatVector.zero(S);
        for (int p = p0; p < p1; p++) {
            FloatVector ap = FloatVector.broadcast(S, a[ai + p * aCol]);
            c0 = ap.fma(FloatVector.fromArray(S, b, bj + p * ldb), c0);
            c1 = ap.fma(FloatVector.fromArray(S, b, bj + p * ldb + L), c1);
        }
        c0.intoArray(c, cj);
        c1.intoArray(c, cj + L);
    }

    /** One row by one vector of C. */
    private static void vector1(float[] a, int ai, int aCol, float[] b, int bj, int ldb, float[] c, int cj, int p0,
                                int p1, boolean accumulate) {
        FloatVector c0 = accumulate ? FloatVector.fromArray(S, c, cj) : FloatVector.zero(S);
        for (int p = p0; p < p1; p++) {
            c0 = FloatVector.broadcast(S, a[ai + p * aCol]).fma(FloatVector.fromArray(S, b, bj + p * ldb), c0);
        }
        c0.intoArray(c, cj);
    }
}
