package dev.brisk.backend.jvm;

import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.Parallel;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Single-precision gemm on the Vector API, blocked as in BLIS: each {@code KC x NC} block of op(B) is packed into
 * per-thread scratch as panels of {@link #NR} columns (which also absorbs a transposed B), and a register tile of
 * {@link #MR} rows x two vectors of FMA accumulators sweeps it, broadcasting op(A) straight from the caller's array
 * in either layout (packing a transposed A, by register transposes, measured no faster at two threads: the copy
 * cost what the kernel saved). With a packed panel, a row-major A goes through {@link #kernelRows}, whose constant
 * strides let the JIT drop its range checks, and a transposed one through {@link #kernelColumns}; the general
 * {@link #kernel} serves a B read in place. Only the tiles cut by the edges of C go through a scratch tile. Every
 * element of C is one FMA chain per depth block from zero, added to C in block order, whatever the tiling: the bits
 * depend on {@link #KC} only.
 */
final class VectorGemm {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Rows of the register tile. */
    static final int MR = 6;
    /** Columns of the register tile (two vectors). */
    static final int NR = 2 * L;
    /** Depth of a block. 320 keeps the 3x3x32 im2col depth (288) in one block; 256 and 384 measure about the same. */
    static final int KC = 320;
    /** Rows of op(A) swept per packed B panel (a multiple of {@link #MR}): the rows stay in L2 across panels. */
    private static final int MC = 96;
    /** Columns of a packed B block (a multiple of {@link #NR}). */
    private static final int NC = 1024;
    /** Up to this many rows of C, B is read in place rather than packed (see {@link #gemmBlock}). */
    private static final int DIRECT_B_MAX_ROWS = 2 * MR;
    /** A column split needs this many panels per thread (fewer: split rows). */
    private static final int SPLIT_COLS_MIN = 4;
    /** Below this many multiply-adds a parallel region costs more than it saves. */
    private static final long PARALLEL_MIN_MACS = 1L << 16;
    /**
     * The blocks in which a transposed B is packed by register transposes: 16x16 ({@link Transpose16}) where the
     * preferred vectors are 512-bit, 8x8 ({@link Transpose8}, 256-bit vectors) where they are at least 256-bit, so
     * that the shuffles are native; 0 (one float at a time) below that.
     */
    private static final int TRANSPOSE_BLOCK = L == 16 ? 16 : L >= 8 ? 8 : 0;
    private static final boolean VECTOR_TRANSPOSE = TRANSPOSE_BLOCK > 0;

    private VectorGemm() {
    }

    /**
     * {@code C = op(A) op(B)} (or {@code +=}), then {@code C = fn(C + bias[j])} applied to each block of rows as
     * soon as its last depth block is stored, while it is still in cache, then the binary epilogue
     * ({@link GemmArgs#binary}) on the same block; a null {@code bias}, {@code fn} or binary skips that part, and
     * with all three null this is plain gemm (see {@link dev.brisk.backend.Kernels#gemm} and
     * {@link VectorEpilogue}). Split across the shared pool; {@code g} is the calling thread's
     * {@link GemmArgs#get()}, filled by the caller, and its array references are dropped on return.
     */
    static void gemm(GemmArgs g) {
        try {
            compute(g);
        } finally {
            g.clearReferences();
        }
    }

    /** {@link #gemm}: the empty cases, then one block on this thread or a parallel region of blocks. */
    private static void compute(GemmArgs g) {
        int m = g.m;
        int n = g.n;
        int k = g.k;
        if (m <= 0 || n <= 0) {
            return;
        }
        if (k <= 0) {
            if (!g.accumulate) {
                for (int i = 0; i < m; i++) {
                    Arrays.fill(g.c, g.cOff + i * g.ldc, g.cOff + i * g.ldc + n, 0f);
                }
            }
            blockEpilogue(g, 0, m, 0, n);
            binaryEpilogue(g, 0, m, 0, n);
            return;
        }
        if ((long) m * n * k < PARALLEL_MIN_MACS || Parallel.insideRegion() || Parallel.threads() == 1) {
            gemmBlock(g, 0, m, 0, n);
            return;
        }
        int threads = Parallel.threads();
        int rowTiles = ceilDiv(m, MR);
        int colTiles = ceilDiv(n, NR);
        // A column split duplicates no packing (each thread packs only its own columns of B) but has every chunk
        // read all of A; it wins when each thread still gets a few panels and A stays in cache between chunks.
        if ((colTiles >= SPLIT_COLS_MIN * threads && GemmSplit.chunksRereadA(m, k)) || rowTiles < threads) {
            // Several chunks per thread: column boundaries cost nothing (each column of C gets the same depth
            // blocks, so the same bits, and A is read once per panel either way).
            g.forRange(colTiles, 1, Split.CHUNKS_PER_THREAD, (a, t0, t1) ->
                    gemmBlock(a, 0, a.m, t0 * NR, Math.min(a.n, t1 * NR)));
        } else {
            // Few panels per thread: a grid of blocks, one per thread (by default rows only).
            int colGroups = GemmSplit.columnGroups(m, n, k, g.transB, threads);
            int rowGroups = GemmSplit.rowGroups(m, colGroups, threads);
            g.rowTiles = rowTiles;
            g.colTiles = colTiles;
            g.rowGroups = rowGroups;
            g.colGroups = colGroups;
            g.forRange(rowGroups * colGroups, 1, (a, b0, b1) -> {
                for (int block = b0; block < b1; block++) {
                    int rg = block / a.colGroups;
                    int cg = block % a.colGroups;
                    int i0 = (int) ((long) a.rowTiles * rg / a.rowGroups) * MR;
                    int i1 = Math.min(a.m, (int) ((long) a.rowTiles * (rg + 1) / a.rowGroups) * MR);
                    int j0 = (int) ((long) a.colTiles * cg / a.colGroups) * NR;
                    int j1 = Math.min(a.n, (int) ((long) a.colTiles * (cg + 1) / a.colGroups) * NR);
                    gemmBlock(a, i0, i1, j0, j1);
                }
            });
        }
    }

    /**
     * Computes rows {@code [i0, i1)} and columns {@code [j0, j1)} of the product {@code g} on the calling thread,
     * with the epilogue of {@link #gemm}. The operands are read into locals once, before the loops.
     */
    static void gemmBlock(GemmArgs g, int i0, int i1, int j0, int j1) {
        if (j1 - j0 <= VectorGemmNarrow.MAX_COLS) {
            VectorGemmNarrow.gemmBlock(g, i0, i1, j0, j1);
            return;
        }
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
        boolean epilogue = bias != null || fn != null;
        // A bias and relu are applied to each register tile right after it is stored (still in L1); other
        // functions in a pass over each block of rows (see VectorEpilogue).
        boolean perTile = epilogue && (fn == null || fn == UnaryFn.RELU) && g.activated == null;
        // Even block sizes: 784 = 3 x 262 rather than 2 x 320 + 144.
        int kc = ceilDiv(k, ceilDiv(k, KC));
        int nc = roundUp(ceilDiv(j1 - j0, ceilDiv(j1 - j0, NC)), NR);
        int mc = roundUp(ceilDiv(i1 - i0, ceilDiv(i1 - i0, MC)), MR);
        Scratch scratch = Scratch.get();
        float[] bp = scratch.packB(kc * nc);
        float[] edge = scratch.edge(MR * kc);
        float[] tile = scratch.tile(MR * NR);
        // op(A)[i][p] is a[aOff + i * rowStep + p * depthStep].
        int rowStep = transA ? 1 : lda;
        int depthStep = transA ? lda : 1;
        // With few rows a packed panel would be read only once or twice, so B is read in place when its rows
        // are contiguous; only a last, partial panel is packed.
        boolean directB = readsBInPlace(transB, i1 - i0);
        for (int jc = j0; jc < j1; jc += nc) {
            int nb = Math.min(nc, j1 - jc);
            int fullCols = directB ? nb / NR * NR : 0;
            for (int pc = 0; pc < k; pc += kc) {
                int kb = Math.min(kc, k - pc);
                if (!directB) {
                    packB(transB, b, bOff, ldb, pc, kb, jc, nb, bp);
                } else if (fullCols < nb) {
                    packB(false, b, bOff, ldb, pc, kb, jc + fullCols, nb - fullCols, bp);
                }
                boolean add = accumulate || pc > 0;
                boolean last = pc + kb == k;
                boolean tileEpilogue = last && perTile;
                for (int ic = i0; ic < i1; ic += mc) {
                    int mb = Math.min(mc, i1 - ic);
                    int fullRows = mb / MR * MR;
                    int aBlock = aOff + ic * rowStep + pc * depthStep;
                    if (fullRows < mb) {
                        packEdgeRows(a, aBlock + fullRows * rowStep, rowStep, depthStep, mb - fullRows, kb, edge);
                    }
                    for (int jr = 0; jr < nb; jr += NR) {
                        int cols = Math.min(NR, nb - jr);
                        float[] bs = bp;
                        int bi = directB ? 0 : jr * kb;
                        int bStep = NR;
                        if (jr < fullCols) {
                            bs = b;
                            bi = bOff + pc * ldb + jc + jr;
                            bStep = ldb;
                        }
                        for (int ir = 0; ir < mb; ir += MR) {
                            int ci = cOff + (ic + ir) * ldc + jc + jr;
                            int rows = Math.min(MR, mb - ir);
                            // This sliver's rows: in the caller's array, or the last few packed row-major.
                            float[] as = a;
                            int ai = aBlock + ir * rowStep;
                            int rs = rowStep;
                            int ds = depthStep;
                            if (ir >= fullRows) {
                                as = edge;
                                ai = 0;
                                rs = kb;
                                ds = 1;
                            }
                            boolean direct = rows == MR && cols == NR;
                            float[] target = direct ? c : tile;
                            int ti = direct ? ci : 0;
                            int ldt = direct ? ldc : NR;
                            boolean addHere = direct && add;
                            if (ds == 1 && bStep == NR) {
                                kernelRows(kb, as, ai, rs, bs, bi, target, ti, ldt, addHere);
                            } else if (rs == 1 && bStep == NR) {
                                kernelColumns(kb, as, ai, ds, bs, bi, target, ti, ldt, addHere);
                            } else {
                                kernel(kb, as, ai, rs, ds, bs, bi, bStep, target, ti, ldt, addHere);
                            }
                            if (!direct) {
                                mergeTile(tile, rows, cols, c, ci, ldc, add);
                            }
                            if (tileEpilogue) {
                                VectorEpilogue.biasRelu(c, ci, ldc, rows, cols, bias, biasOff + jc + jr,
                                        fn == UnaryFn.RELU);
                            }
                        }
                    }
                    if (epilogue && !perTile && last) {
                        blockEpilogue(g, ic, ic + mb, jc, jc + nb);
                    }
                    if (last) {
                        binaryEpilogue(g, ic, ic + mb, jc, jc + nb);
                    }
                }
            }
        }
    }

    /**
     * The bias and activation of {@code g} on rows {@code [i0, i1)} and columns {@code [j0, j1)} of C, in place or,
     * when C keeps the pre-activation, into {@link GemmArgs#activated}; nothing when it has neither.
     */
    static void blockEpilogue(GemmArgs g, int i0, int i1, int j0, int j1) {
        int at = i0 * g.ldc + j0;
        if (g.activated != null) {
            VectorEpilogue.biasActivationKeeping(g.c, g.cOff + at, g.ldc, i1 - i0, j1 - j0, g.bias, g.biasOff + j0,
                    g.fn, g.alpha, g.activated, g.activatedOff + at);
        } else if (g.bias != null || g.fn != null) {
            VectorEpilogue.biasActivation(g.c, g.cOff + at, g.ldc, i1 - i0, j1 - j0, g.bias, g.biasOff + j0, g.fn,
                    g.alpha);
        }
    }

    /**
     * The binary epilogue of {@code g} ({@link GemmArgs#binary}), if it has one, on rows {@code [i0, i1)} and
     * columns {@code [j0, j1)} of C, just computed and still in cache.
     */
    static void binaryEpilogue(GemmArgs g, int i0, int i1, int j0, int j1) {
        if (g.binary != null) {
            VectorEpilogue.binary(g.binary, g.binaryAlpha, g.c, g.cOff + i0 * g.ldc + j0, g.operand,
                    g.operandOff + i0 * g.ldc + j0, g.ldc, i1 - i0, j1 - j0, g.productFirst);
        }
    }

    /** True when {@link #gemmBlock} reads B in place for a block of {@code rows} rows instead of packing it. */
    static boolean readsBInPlace(boolean transB, int rows) {
        return !transB && rows <= DIRECT_B_MAX_ROWS;
    }

    /**
     * Packs {@code op(B)[pc, pc+kb) x [jc, jc+nb)} as panels of {@link #NR} columns, each stored as {@code kb} rows
     * of {@code NR} contiguous floats, zero-padded past {@code nb}.
     */
    private static void packB(boolean transB, float[] b, int bOff, int ldb, int pc, int kb, int jc, int nb,
                              float[] bp) {
        // Each layout in its own method: in one, C2 reached its inlining limits and boxed the copy's vectors
        // (the plain copy ran 4x slower).
        for (int jr = 0; jr < nb; jr += NR) {
            int cols = Math.min(NR, nb - jr);
            int dst = jr * kb;
            if (!transB) {
                copyPanel(b, bOff + pc * ldb + jc + jr, ldb, kb, cols, bp, dst);
            } else if (cols == NR && VECTOR_TRANSPOSE) {
                transposePanel(b, bOff + (jc + jr) * ldb + pc, ldb, kb, bp, dst);
            } else {
                transposeEdgePanel(b, bOff + (jc + jr) * ldb + pc, ldb, kb, cols, bp, dst);
            }
        }
    }

    /** One panel of B's rows {@code b[src + p * ldb ..+cols)}, zero-padded to {@link #NR} columns. */
    private static void copyPanel(float[] b, int src, int ldb, int kb, int cols, float[] bp, int dst) {
        if (cols == NR) {
            for (int p = 0; p < kb; p++, src += ldb, dst += NR) {
                FloatVector.fromArray(S, b, src).intoArray(bp, dst);
                FloatVector.fromArray(S, b, src + L).intoArray(bp, dst + L);
            }
        } else {
            for (int p = 0; p < kb; p++, src += ldb, dst += NR) {
                for (int j = 0; j < NR; j++) {
                    bp[dst + j] = j < cols ? b[src + j] : 0f;
                }
            }
        }
    }

    /**
     * One full panel of a transposed B, {@code op(B)[p][j] = b[src + j * ldb + p]}: blocks of
     * {@link #TRANSPOSE_BLOCK} squared transposed in registers, the panel written in order.
     */
    private static void transposePanel(float[] b, int src, int ldb, int kb, float[] bp, int dst) {
        int p0 = 0;
        if (TRANSPOSE_BLOCK == 16) {
            for (; p0 + 16 <= kb; p0 += 16) {
                for (int j0 = 0; j0 < NR; j0 += 16) {
                    Transpose16.block(b, src + j0 * ldb + p0, ldb, bp, dst + p0 * NR + j0, NR);
                }
            }
        } else {
            for (; p0 + 8 <= kb; p0 += 8) {
                for (int j0 = 0; j0 < NR; j0 += 8) {
                    Transpose8.block(b, src + j0 * ldb + p0, ldb, bp, dst + p0 * NR + j0, NR);
                }
            }
        }
        for (int j = 0; j < NR; j++) {
            for (int p = p0; p < kb; p++) {
                bp[dst + p * NR + j] = b[src + j * ldb + p];
            }
        }
    }

    /** A transposed panel of {@code cols <= NR} columns, zero-padded, one float at a time. */
    private static void transposeEdgePanel(float[] b, int src, int ldb, int kb, int cols, float[] bp, int dst) {
        // Blocks of 16 depths keep the 16 panel lines being written in L1 while the NR source rows are read.
        for (int p0 = 0; p0 < kb; p0 += 16) {
            int p1 = Math.min(kb, p0 + 16);
            for (int j = 0; j < NR; j++) {
                for (int p = p0; p < p1; p++) {
                    bp[dst + p * NR + j] = j < cols ? b[src + j * ldb + p] : 0f;
                }
            }
        }
    }

    /**
     * Copies the last {@code rows < MR} rows of an A block ({@code A[i][p] = a[ai + i * rowStep + p * depthStep]},
     * depth {@code kb}) into an {@code MR}-row sliver, row-major and padded with zero rows, which
     * {@link #kernelRows} reads like any row-major A.
     */
    private static void packEdgeRows(float[] a, int ai, int rowStep, int depthStep, int rows, int kb, float[] edge) {
        for (int i = 0; i < MR; i++) {
            int src = ai + i * rowStep;
            for (int p = 0; p < kb; p++) {
                edge[i * kb + p] = i < rows ? a[src + p * depthStep] : 0f;
            }
        }
    }

    /**
     * {@link #kernel} for op(A) rows at depth stride 1 ({@code A[i][p] = a[ai + i * lda + p]}) and a packed B panel
     * (row p at {@code b[bi + p * NR]}): every index is the loop counter times a constant plus an invariant, so C2
     * drops the range checks from the loop (with the strides as variables it keeps eight a depth step, and the
     * loop ran about 15% slower on a 512-bit Intel core, whose two FMA units it no longer kept fed). The same
     * arithmetic in the same order as {@link #kernel}, so the same bits.
     */
    static void kernelRows(int kb, float[] a, int ai, int lda, float[] b, int bi, float[] c, int ci, int ldc,
                           boolean add) {
        int a1 = ai + lda;
        int a2 = ai + 2 * lda;
        int a3 = ai + 3 * lda;
        int a4 = ai + 4 * lda;
        int a5 = ai + 5 * lda;
        FloatVector c00 = FloatVector.zero(S);
        FloatVector c01 = c00;
        FloatVector c10 = c00;
        FloatVector c11 = c00;
        FloatVector c20 = c00;
        FloatVector c21 = c00;
        FloatVector c30 = c00;
        FloatVector c31 = c00;
        FloatVector c40 = c00;
        FloatVector c41 = c00;
        FloatVector c50 = c00;
        FloatVector c51 = c00;
        for (int p = 0; p < kb; p++) {
            int bp = bi + p * NR;
            FloatVector b0 = FloatVector.fromArray(S, b, bp);
            FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
            FloatVector v = FloatVector.broadcast(S, a[ai + p]);
            c00 = v.fma(b0, c00);
            c01 = v.fma(b1, c01);
            v = FloatVector.broadcast(S, a[a1 + p]);
            c10 = v.fma(b0, c10);
            c11 = v.fma(b1, c11);
            v = FloatVector.broadcast(S, a[a2 + p]);
            c20 = v.fma(b0, c20);
            c21 = v.fma(b1, c21);
            v = FloatVector.broadcast(S, a[a3 + p]);
            c30 = v.fma(b0, c30);
            c31 = v.fma(b1, c31);
            v = FloatVector.broadcast(S, a[a4 + p]);
            c40 = v.fma(b0, c40);
            c41 = v.fma(b1, c41);
            v = FloatVector.broadcast(S, a[a5 + p]);
            c50 = v.fma(b0, c50);
            c51 = v.fma(b1, c51);
        }
        // Stored here, as in kernel, for the reason given there.
        if (add) {
            c00 = c00.add(FloatVector.fromArray(S, c, ci));
            c01 = c01.add(FloatVector.fromArray(S, c, ci + L));
            c10 = c10.add(FloatVector.fromArray(S, c, ci + ldc));
            c11 = c11.add(FloatVector.fromArray(S, c, ci + ldc + L));
            c20 = c20.add(FloatVector.fromArray(S, c, ci + 2 * ldc));
            c21 = c21.add(FloatVector.fromArray(S, c, ci + 2 * ldc + L));
            c30 = c30.add(FloatVector.fromArray(S, c, ci + 3 * ldc));
            c31 = c31.add(FloatVector.fromArray(S, c, ci + 3 * ldc + L));
            c40 = c40.add(FloatVector.fromArray(S, c, ci + 4 * ldc));
            c41 = c41.add(FloatVector.fromArray(S, c, ci + 4 * ldc + L));
            c50 = c50.add(FloatVector.fromArray(S, c, ci + 5 * ldc));
            c51 = c51.add(FloatVector.fromArray(S, c, ci + 5 * ldc + L));
        }
        c00.intoArray(c, ci);
        c01.intoArray(c, ci + L);
        c10.intoArray(c, ci + ldc);
        c11.intoArray(c, ci + ldc + L);
        c20.intoArray(c, ci + 2 * ldc);
        c21.intoArray(c, ci + 2 * ldc + L);
        c30.intoArray(c, ci + 3 * ldc);
        c31.intoArray(c, ci + 3 * ldc + L);
        c40.intoArray(c, ci + 4 * ldc);
        c41.intoArray(c, ci + 4 * ldc + L);
        c50.intoArray(c, ci + 5 * ldc);
        c51.intoArray(c, ci + 5 * ldc + L);
    }

    /**
     * The register tile over depths {@code [p0, p1)}, {@code C[MR x NR] (+)= A B}, for rows of A made of runs:
     * row r's depths {@code [i run, (i + 1) run)} are {@code run} consecutive floats at {@code wr + i rowStride}
     * (one kernel row of a convolution window, {@link VectorImplicitConv}), and row p of B is at
     * {@code panels[panel + p * NR]}. Each run is an inner loop whose indices are the counter plus invariants, so
     * C2 drops its range checks; the accumulators live across runs, so each element is one chain in depth order,
     * the same bits as {@link #kernel}. {@link #kernelRows} is this with one run per row, written out again:
     * calling this from it cost gemm about 5% (measured in one JVM).
     */
    static void kernelWindows(float[] x, int w0, int w1, int w2, int w3, int w4, int w5, int rowStride, int run,
                              int p0, int p1, float[] panels, int panel, float[] c, int ci, int ldc, boolean add) {
        FloatVector c00 = FloatVector.zero(S);
        FloatVector c01 = c00;
        FloatVector c10 = c00;
        FloatVector c11 = c00;
        FloatVector c20 = c00;
        FloatVector c21 = c00;
        FloatVector c30 = c00;
        FloatVector c31 = c00;
        FloatVector c40 = c00;
        FloatVector c41 = c00;
        FloatVector c50 = c00;
        FloatVector c51 = c00;
        for (int i = p0 / run; i * run < p1; i++) {
            int from = Math.max(p0, i * run);
            int to = Math.min(p1, (i + 1) * run);
            // Depth p of kernel row i is at window + i rowStride + (p - i run).
            int d = i * rowStride - i * run;
            int a0 = w0 + d;
            int a1 = w1 + d;
            int a2 = w2 + d;
            int a3 = w3 + d;
            int a4 = w4 + d;
            int a5 = w5 + d;
            for (int p = from; p < to; p++) {
                int bp = panel + p * NR;
                FloatVector b0 = FloatVector.fromArray(S, panels, bp);
                FloatVector b1 = FloatVector.fromArray(S, panels, bp + L);
                FloatVector v = FloatVector.broadcast(S, x[a0 + p]);
                c00 = v.fma(b0, c00);
                c01 = v.fma(b1, c01);
                v = FloatVector.broadcast(S, x[a1 + p]);
                c10 = v.fma(b0, c10);
                c11 = v.fma(b1, c11);
                v = FloatVector.broadcast(S, x[a2 + p]);
                c20 = v.fma(b0, c20);
                c21 = v.fma(b1, c21);
                v = FloatVector.broadcast(S, x[a3 + p]);
                c30 = v.fma(b0, c30);
                c31 = v.fma(b1, c31);
                v = FloatVector.broadcast(S, x[a4 + p]);
                c40 = v.fma(b0, c40);
                c41 = v.fma(b1, c41);
                v = FloatVector.broadcast(S, x[a5 + p]);
                c50 = v.fma(b0, c50);
                c51 = v.fma(b1, c51);
            }
        }
        // Stored here, as in kernel, for the reason given there.
        if (add) {
            c00 = c00.add(FloatVector.fromArray(S, c, ci));
            c01 = c01.add(FloatVector.fromArray(S, c, ci + L));
            c10 = c10.add(FloatVector.fromArray(S, c, ci + ldc));
            c11 = c11.add(FloatVector.fromArray(S, c, ci + ldc + L));
            c20 = c20.add(FloatVector.fromArray(S, c, ci + 2 * ldc));
            c21 = c21.add(FloatVector.fromArray(S, c, ci + 2 * ldc + L));
            c30 = c30.add(FloatVector.fromArray(S, c, ci + 3 * ldc));
            c31 = c31.add(FloatVector.fromArray(S, c, ci + 3 * ldc + L));
            c40 = c40.add(FloatVector.fromArray(S, c, ci + 4 * ldc));
            c41 = c41.add(FloatVector.fromArray(S, c, ci + 4 * ldc + L));
            c50 = c50.add(FloatVector.fromArray(S, c, ci + 5 * ldc));
            c51 = c51.add(FloatVector.fromArray(S, c, ci + 5 * ldc + L));
        }
        c00.intoArray(c, ci);
        c01.intoArray(c, ci + L);
        c10.intoArray(c, ci + ldc);
        c11.intoArray(c, ci + ldc + L);
        c20.intoArray(c, ci + 2 * ldc);
        c21.intoArray(c, ci + 2 * ldc + L);
        c30.intoArray(c, ci + 3 * ldc);
        c31.intoArray(c, ci + 3 * ldc + L);
        c40.intoArray(c, ci + 4 * ldc);
        c41.intoArray(c, ci + 4 * ldc + L);
        c50.intoArray(c, ci + 5 * ldc);
        c51.intoArray(c, ci + 5 * ldc + L);
    }

    /**
     * {@link #kernel} for a transposed A, its MR rows side by side in each depth's row
     * ({@code A[i][p] = a[ai + p * lda + i]}), and a packed B panel: B's loads lose their range checks as in
     * {@link #kernelRows}, and the JIT checks A's six neighbouring reads once for the lowest and once for the
     * highest (about 10% faster than {@link #kernel} on a 512-bit Intel core). Same arithmetic, same bits.
     */
    static void kernelColumns(int kb, float[] a, int ai, int lda, float[] b, int bi, float[] c, int ci, int ldc,
                              boolean add) {
        FloatVector c00 = FloatVector.zero(S);
        FloatVector c01 = c00;
        FloatVector c10 = c00;
        FloatVector c11 = c00;
        FloatVector c20 = c00;
        FloatVector c21 = c00;
        FloatVector c30 = c00;
        FloatVector c31 = c00;
        FloatVector c40 = c00;
        FloatVector c41 = c00;
        FloatVector c50 = c00;
        FloatVector c51 = c00;
        for (int p = 0, q = ai; p < kb; p++, q += lda) {
            int bp = bi + p * NR;
            FloatVector b0 = FloatVector.fromArray(S, b, bp);
            FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
            FloatVector v = FloatVector.broadcast(S, a[q]);
            c00 = v.fma(b0, c00);
            c01 = v.fma(b1, c01);
            v = FloatVector.broadcast(S, a[q + 1]);
            c10 = v.fma(b0, c10);
            c11 = v.fma(b1, c11);
            v = FloatVector.broadcast(S, a[q + 2]);
            c20 = v.fma(b0, c20);
            c21 = v.fma(b1, c21);
            v = FloatVector.broadcast(S, a[q + 3]);
            c30 = v.fma(b0, c30);
            c31 = v.fma(b1, c31);
            v = FloatVector.broadcast(S, a[q + 4]);
            c40 = v.fma(b0, c40);
            c41 = v.fma(b1, c41);
            v = FloatVector.broadcast(S, a[q + 5]);
            c50 = v.fma(b0, c50);
            c51 = v.fma(b1, c51);
        }
        // Stored here, as in kernel, for the reason given there.
        if (add) {
            c00 = c00.add(FloatVector.fromArray(S, c, ci));
            c01 = c01.add(FloatVector.fromArray(S, c, ci + L));
            c10 = c10.add(FloatVector.fromArray(S, c, ci + ldc));
            c11 = c11.add(FloatVector.fromArray(S, c, ci + ldc + L));
            c20 = c20.add(FloatVector.fromArray(S, c, ci + 2 * ldc));
            c21 = c21.add(FloatVector.fromArray(S, c, ci + 2 * ldc + L));
            c30 = c30.add(FloatVector.fromArray(S, c, ci + 3 * ldc));
            c31 = c31.add(FloatVector.fromArray(S, c, ci + 3 * ldc + L));
            c40 = c40.add(FloatVector.fromArray(S, c, ci + 4 * ldc));
            c41 = c41.add(FloatVector.fromArray(S, c, ci + 4 * ldc + L));
            c50 = c50.add(FloatVector.fromArray(S, c, ci + 5 * ldc));
            c51 = c51.add(FloatVector.fromArray(S, c, ci + 5 * ldc + L));
        }
        c00.intoArray(c, ci);
        c01.intoArray(c, ci + L);
        c10.intoArray(c, ci + ldc);
        c11.intoArray(c, ci + ldc + L);
        c20.intoArray(c, ci + 2 * ldc);
        c21.intoArray(c, ci + 2 * ldc + L);
        c30.intoArray(c, ci + 3 * ldc);
        c31.intoArray(c, ci + 3 * ldc + L);
        c40.intoArray(c, ci + 4 * ldc);
        c41.intoArray(c, ci + 4 * ldc + L);
        c50.intoArray(c, ci + 5 * ldc);
        c51.intoArray(c, ci + 5 * ldc + L);
    }

    /**
     * The register-tiled core: {@code C[MR x NR] (+)= A[MR x kb] B[kb x NR]} with
     * {@code A[i][p] = a[ai + i * rowStep + p * depthStep]} and row p of B the {@code NR} floats at
     * {@code b[bi + p * bStep]}.
     */
    private static void kernel(int kb, float[] a, int ai, int rowStep, int depthStep, float[] b, int bi, int bStep,
                               float[] c, int ci, int ldc, boolean add) {
        int r1 = rowStep;
        int r2 = 2 * rowStep;
        int r3 = 3 * rowStep;
        int r4 = 4 * rowStep;
        int r5 = 5 * rowStep;
        FloatVector c00 = FloatVector.zero(S);
        FloatVector c01 = c00;
        FloatVector c10 = c00;
        FloatVector c11 = c00;
        FloatVector c20 = c00;
        FloatVector c21 = c00;
        FloatVector c30 = c00;
        FloatVector c31 = c00;
        FloatVector c40 = c00;
        FloatVector c41 = c00;
        FloatVector c50 = c00;
        FloatVector c51 = c00;
        for (int p = 0; p < kb; p++, ai += depthStep, bi += bStep) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = a0.fma(b0, c00);
            c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + r1]);
            c10 = a1.fma(b0, c10);
            c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + r2]);
            c20 = a2.fma(b0, c20);
            c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + r3]);
            c30 = a3.fma(b0, c30);
            c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, a[ai + r4]);
            c40 = a4.fma(b0, c40);
            c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, a[ai + r5]);
            c50 = a5.fma(b0, c50);
            c51 = a5.fma(b1, c51);
        }
        // Stored here rather than by a helper taking the accumulators as FloatVector parameters: there C2 knows
        // their class only from the type profile of the JDK's shared vector methods, which vectors of another size
        // pollute (Transpose8's 256-bit ones on a 512-bit machine did), and in some JVMs it then compiled the adds
        // as calls into the Java fallback, 20-1,500 times slower.
        if (add) {
            c00 = c00.add(FloatVector.fromArray(S, c, ci));
            c01 = c01.add(FloatVector.fromArray(S, c, ci + L));
            c10 = c10.add(FloatVector.fromArray(S, c, ci + ldc));
            c11 = c11.add(FloatVector.fromArray(S, c, ci + ldc + L));
            c20 = c20.add(FloatVector.fromArray(S, c, ci + 2 * ldc));
            c21 = c21.add(FloatVector.fromArray(S, c, ci + 2 * ldc + L));
            c30 = c30.add(FloatVector.fromArray(S, c, ci + 3 * ldc));
            c31 = c31.add(FloatVector.fromArray(S, c, ci + 3 * ldc + L));
            c40 = c40.add(FloatVector.fromArray(S, c, ci + 4 * ldc));
            c41 = c41.add(FloatVector.fromArray(S, c, ci + 4 * ldc + L));
            c50 = c50.add(FloatVector.fromArray(S, c, ci + 5 * ldc));
            c51 = c51.add(FloatVector.fromArray(S, c, ci + 5 * ldc + L));
        }
        c00.intoArray(c, ci);
        c01.intoArray(c, ci + L);
        c10.intoArray(c, ci + ldc);
        c11.intoArray(c, ci + ldc + L);
        c20.intoArray(c, ci + 2 * ldc);
        c21.intoArray(c, ci + 2 * ldc + L);
        c30.intoArray(c, ci + 3 * ldc);
        c31.intoArray(c, ci + 3 * ldc + L);
        c40.intoArray(c, ci + 4 * ldc);
        c41.intoArray(c, ci + 4 * ldc + L);
        c50.intoArray(c, ci + 5 * ldc);
        c51.intoArray(c, ci + 5 * ldc + L);
    }

    /** The first {@code rows x cols} of a scratch tile ({@link #NR} floats a row) into C: stored, or added. */
    static void mergeTile(float[] tile, int rows, int cols, float[] c, int ci, int ldc, boolean add) {
        for (int i = 0; i < rows; i++) {
            int t = i * NR;
            int o = ci + i * ldc;
            for (int j = 0; j < cols; j++) {
                c[o + j] = add ? c[o + j] + tile[t + j] : tile[t + j];
            }
        }
    }

    static int ceilDiv(int x, int y) {
        return (x + y - 1) / y;
    }

    private static int roundUp(int x, int multiple) {
        return ceilDiv(x, multiple) * multiple;
    }
}
