package dev.brisk.backend.jvm;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.PoolGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Max and average pooling over NHWC images, vectorised along channels (contiguous in NHWC). Windows are clipped
 * to the image, which is how padding is ignored; the semantics are those of {@link ScalarKernels}. Max pooling
 * records each maximum's cell ({@link Kernels#maxPool2d}), and its backward pass routes dy by those cells without
 * reading the input again. Forward passes split output rows across threads, backward passes whole images (their
 * windows may overlap), several chunks per thread: every output row or image is computed on its own, so the split
 * changes no bits.
 */
final class VectorPool {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private VectorPool() {
    }

    static void maxPool(PoolGeometry g, float[] x, int xOff, float[] y, int yOff, float[] cells, int cellsOff) {
        int rows = g.batch() * g.outH();
        int grain = rowGrain(g);
        if (Split.serial(rows, grain)) {
            maxPoolRows(g, x, xOff, y, yOff, cells, cellsOff, 0, rows);
        } else {
            PoolArgs r = poolArgs(g, x, xOff, y, yOff);
            r.cells = cells;
            r.cellsOff = cellsOff;
            r.forRange(rows, grain, Split.CHUNKS_PER_THREAD, (a, r0, r1) ->
                    maxPoolRows(a.pool, a.src, a.srcOff, a.dst, a.dstOff, a.cells, a.cellsOff, r0, r1));
        }
    }

    /** Output rows {@code [r0, r1)} of the {@code batch x outH} rows, and their cells unless {@code cells} is null. */
    static void maxPoolRows(PoolGeometry g, float[] x, int xOff, float[] y, int yOff, float[] cells, int cellsOff,
                            int r0, int r1) {
        for (int row = r0; row < r1; row++) {
            int n = row / g.outH();
            int h0 = row % g.outH() * g.strideH() - g.padTop();
            int hLo = Math.max(0, h0);
            int rows = Math.min(g.height(), h0 + g.poolH()) - hLo;
            for (int ow = 0; ow < g.outW(); ow++) {
                int w0 = ow * g.strideW() - g.padLeft();
                int wLo = Math.max(0, w0);
                int cols = Math.min(g.width(), w0 + g.poolW()) - wLo;
                int yi = (row * g.outW() + ow) * g.channels();
                int at = xOff + cell(g, n, hLo, wLo);
                int rowStride = g.width() * g.channels();
                if (cells == null) {
                    maxWindow(x, at, rowStride, g.channels(), rows, cols, y, yOff + yi);
                } else if (rows == 2 && cols == 2 && g.poolW() == 2 && h0 == hLo && w0 == wLo
                        && g.channels() % L == 0) {
                    maxWindow2x2Cells(x, at, rowStride, g.channels(), y, yOff + yi, cells, cellsOff + yi);
                } else {
                    maxWindowCells(x, at, rowStride, g.channels(), rows, cols,
                            (hLo - h0) * g.poolW() + wLo - w0, g.poolW(), y, yOff + yi, cells, cellsOff + yi);
                }
            }
        }
    }

    /**
     * Max pooling's backward from the cells {@link #maxPool} recorded, then {@code dx = fn(gate, dx)} (an activation's
     * gradient) on each image as soon as it is written, while it is still in cache; a null {@code fn} is the plain
     * backward, and a null {@code gate} with relu's gradient gates by the cells' record of a positive maximum.
     */
    static void maxPoolBackward(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff, BinaryFn fn,
                                float alpha, float[] gate, int gateOff, float[] dx, int dxOff) {
        int grain = imageGrain(g);
        if (Split.serial(g.batch(), grain)) {
            maxPoolBackwardImages(g, cells, cellsOff, dy, dyOff, dx, dxOff, 0, g.batch(), fn, alpha, gate, gateOff);
        } else {
            PoolArgs r = poolArgs(g, dy, dyOff, dx, dxOff);
            r.cells = cells;
            r.cellsOff = cellsOff;
            r.gateFn = fn;
            r.alpha = alpha;
            r.gate = gate;
            r.gateOff = gateOff;
            r.forRange(g.batch(), grain, Split.CHUNKS_PER_THREAD, (a, n0, n1) ->
                    maxPoolBackwardImages(a.pool, a.cells, a.cellsOff, a.src, a.srcOff, a.dst, a.dstOff, n0, n1,
                            a.gateFn, a.alpha, a.gate, a.gateOff));
        }
    }

    /** dx of images {@code [n0, n1)}, each gated by {@code fn} once complete (when {@code fn} is not null). */
    private static void maxPoolBackwardImages(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff,
                                              float[] dx, int dxOff, int n0, int n1, BinaryFn fn, float alpha,
                                              float[] gate, int gateOff) {
        int imageSize = g.height() * g.width() * g.channels();
        // Windows that tile the image exactly write every cell of dx once: nothing to clear first, and each cell is
        // stored rather than added to.
        boolean tiles = tilesExactly(g);
        boolean positiveOnly = fn != null && gate == null;
        int rowStride = g.width() * g.channels();
        for (int n = n0; n < n1; n++) {
            if (!tiles) {
                Arrays.fill(dx, dxOff + n * imageSize, dxOff + (n + 1) * imageSize, 0f);
            }
            for (int oh = 0; oh < g.outH(); oh++) {
                int h0 = oh * g.strideH() - g.padTop();
                int hLo = Math.max(0, h0);
                int rows = Math.min(g.height(), h0 + g.poolH()) - hLo;
                for (int ow = 0; ow < g.outW(); ow++) {
                    int w0 = ow * g.strideW() - g.padLeft();
                    int wLo = Math.max(0, w0);
                    int cols = Math.min(g.width(), w0 + g.poolW()) - wLo;
                    if (rows <= 0 || cols <= 0) {
                        continue;
                    }
                    int at = dxOff + cell(g, n, hLo, wLo);
                    int gi = ((n * g.outH() + oh) * g.outW() + ow) * g.channels();
                    if (rows == 2 && cols == 2 && g.poolW() == 2 && h0 == hLo && w0 == wLo
                            && g.channels() % L == 0) {
                        routeWindow2x2(cells, cellsOff + gi, dy, dyOff + gi, dx, at, rowStride, g.channels(), tiles,
                                positiveOnly);
                    } else {
                        routeWindow(cells, cellsOff + gi, dy, dyOff + gi, dx, at, rowStride, g.channels(), rows,
                                cols, (hLo - h0) * g.poolW() + wLo - w0, g.poolW(), tiles, positiveOnly);
                    }
                }
            }
            if (fn != null && gate != null) {
                VectorEpilogue.gate(fn, alpha, gate, gateOff + n * imageSize, dx, dxOff + n * imageSize, imageSize);
            }
        }
    }

    /** This thread's pooling arguments with the geometry, the array read and the array written set. */
    private static PoolArgs poolArgs(PoolGeometry g, float[] src, int srcOff, float[] dst, int dstOff) {
        PoolArgs r = PoolArgs.get();
        r.pool = g;
        r.src = src;
        r.srcOff = srcOff;
        r.dst = dst;
        r.dstOff = dstOff;
        return r;
    }

    /** True when the pooling windows cover every cell of the image exactly once (no padding, no overlap, no rest). */
    private static boolean tilesExactly(PoolGeometry g) {
        return g.padTop() == 0 && g.padLeft() == 0 && g.strideH() == g.poolH() && g.strideW() == g.poolW()
                && g.outH() * g.strideH() == g.height() && g.outW() * g.strideW() == g.width();
    }

    // The window kernels below hold all the vector code: small methods called once per window get compiled
    // early and whole, so no vector ever crosses into code the JIT has not compiled yet (where it would be boxed):
    // two helpers that took and returned a vector (a cell's record and its decoding) made VectorAllocationTest's
    // pooling calls allocate 12-28 KB each, written out in place they allocate nothing.
    // A window's cells are numbered as Kernels.maxPool2d documents: i * poolW + j over the whole window, padding
    // included, so a window clipped by the padding starts at cell (hLo - h0) * poolW + (wLo - w0); the record is
    // the cell when the maximum is above zero, -1 - cell otherwise.

    /**
     * Per channel, the maximum over a {@code rows x cols} window whose first cell starts at {@code base}, taking a
     * later cell only when strictly greater (so the first maximum wins, and a NaN only from the first cell); 0 for
     * an empty window.
     */
    private static void maxWindow(float[] x, int base, int rowStride, int channels, int rows, int cols, float[] y,
                                  int yi) {
        if (rows == 2 && cols == 2 && channels % L == 0) {
            maxWindow2x2(x, base, rowStride, channels, y, yi);
            return;
        }
        for (int c = 0; c < channels; c += L) {
            VectorMask<Float> m = S.indexInRange(c, channels);
            FloatVector best = FloatVector.zero(S);
            if (rows > 0 && cols > 0) {
                best = FloatVector.fromArray(S, x, base + c, m);
                for (int r = 0; r < rows; r++) {
                    for (int q = 0; q < cols; q++) {
                        FloatVector v = FloatVector.fromArray(S, x, base + r * rowStride + q * channels + c, m);
                        best = best.blend(v, v.compare(VectorOperators.GT, best));
                    }
                }
            }
            best.intoArray(y, yi + c, m);
        }
    }

    /** {@link #maxWindow}, and each maximum's cell: the window's first cell is number {@code firstCell}. */
    private static void maxWindowCells(float[] x, int base, int rowStride, int channels, int rows, int cols,
                                       int firstCell, int poolW, float[] y, int yi, float[] cells, int ci) {
        for (int c = 0; c < channels; c += L) {
            VectorMask<Float> m = S.indexInRange(c, channels);
            if (rows <= 0 || cols <= 0) {
                FloatVector.zero(S).intoArray(y, yi + c, m);
                FloatVector.broadcast(S, Kernels.NO_CELL).intoArray(cells, ci + c, m);
                continue;
            }
            FloatVector best = FloatVector.fromArray(S, x, base + c, m);
            FloatVector bestCell = FloatVector.broadcast(S, firstCell);
            for (int r = 0; r < rows; r++) {
                for (int q = 0; q < cols; q++) {
                    FloatVector v = FloatVector.fromArray(S, x, base + r * rowStride + q * channels + c, m);
                    VectorMask<Float> greater = v.compare(VectorOperators.GT, best);
                    best = best.blend(v, greater);
                    bestCell = bestCell.blend(firstCell + r * poolW + q, greater);
                }
            }
            best.intoArray(y, yi + c, m);
            FloatVector.broadcast(S, -1f).sub(bestCell).blend(bestCell, best.compare(VectorOperators.GT, 0f))
                    .intoArray(cells, ci + c, m);
        }
    }

    /** Adds each channel's {@code dy} to the cell of the window its record names (see {@link #routeWindow2x2}). */
    private static void routeWindow(float[] cells, int ci, float[] dy, int gi, float[] dx, int dxBase, int rowStride,
                                    int channels, int rows, int cols, int firstCell, int poolW, boolean store,
                                    boolean positiveOnly) {
        for (int c = 0; c < channels; c += L) {
            VectorMask<Float> m = S.indexInRange(c, channels);
            FloatVector cell = FloatVector.fromArray(S, cells, ci + c, m);
            if (!positiveOnly) {
                cell = cell.blend(FloatVector.broadcast(S, -1f).sub(cell), cell.compare(VectorOperators.LT, 0f));
            }
            FloatVector grad = FloatVector.fromArray(S, dy, gi + c, m);
            for (int r = 0; r < rows; r++) {
                for (int q = 0; q < cols; q++) {
                    int at = dxBase + r * rowStride + q * channels + c;
                    VectorMask<Float> hit = cell.compare(VectorOperators.EQ, firstCell + r * poolW + q);
                    (store ? FloatVector.zero(S) : FloatVector.fromArray(S, dx, at, m)).add(grad, hit)
                            .intoArray(dx, at, m);
                }
            }
        }
    }

    // The usual 2x2 window over whole vectors of channels, written out: no masks and no loops over cells, which
    // made the general window kernels above the slowest part of a small CNN's step (2 ms per 128-image batch).
    // Same rule as there: a later cell wins only when strictly greater; the cell is the last one that was greater
    // than the maximum so far.

    private static void maxWindow2x2(float[] x, int base, int rowStride, int channels, float[] y, int yi) {
        for (int c = 0; c < channels; c += L) {
            FloatVector best = FloatVector.fromArray(S, x, base + c);
            FloatVector v = FloatVector.fromArray(S, x, base + channels + c);
            best = best.blend(v, v.compare(VectorOperators.GT, best));
            v = FloatVector.fromArray(S, x, base + rowStride + c);
            best = best.blend(v, v.compare(VectorOperators.GT, best));
            v = FloatVector.fromArray(S, x, base + rowStride + channels + c);
            best = best.blend(v, v.compare(VectorOperators.GT, best));
            best.intoArray(y, yi + c);
        }
    }

    private static void maxWindow2x2Cells(float[] x, int base, int rowStride, int channels, float[] y, int yi,
                                          float[] cells, int ci) {
        for (int c = 0; c < channels; c += L) {
            FloatVector best = FloatVector.fromArray(S, x, base + c);
            FloatVector v = FloatVector.fromArray(S, x, base + channels + c);
            VectorMask<Float> greater = v.compare(VectorOperators.GT, best);
            best = best.blend(v, greater);
            FloatVector cell = FloatVector.zero(S).blend(1f, greater);
            v = FloatVector.fromArray(S, x, base + rowStride + c);
            greater = v.compare(VectorOperators.GT, best);
            best = best.blend(v, greater);
            cell = cell.blend(2f, greater);
            v = FloatVector.fromArray(S, x, base + rowStride + channels + c);
            greater = v.compare(VectorOperators.GT, best);
            best = best.blend(v, greater);
            cell = cell.blend(3f, greater);
            best.intoArray(y, yi + c);
            FloatVector.broadcast(S, -1f).sub(cell).blend(cell, best.compare(VectorOperators.GT, 0f))
                    .intoArray(cells, ci + c);
        }
    }

    /**
     * Routes each channel's {@code dy} to the cell its record names in a 2x2 window; with {@code store} (windows
     * that tile the image) writes the window's other cells 0 instead of leaving them. With {@code positiveOnly}, only
     * a maximum above zero passes its gradient (relu's gradient of the pooled input).
     */
    private static void routeWindow2x2(float[] cells, int ci, float[] dy, int gi, float[] dx, int dxBase,
                                       int rowStride, int channels, boolean store, boolean positiveOnly) {
        for (int c = 0; c < channels; c += L) {
            FloatVector cell = FloatVector.fromArray(S, cells, ci + c);
            if (!positiveOnly) {
                cell = cell.blend(FloatVector.broadcast(S, -1f).sub(cell), cell.compare(VectorOperators.LT, 0f));
            }
            FloatVector grad = FloatVector.fromArray(S, dy, gi + c);
            addWhere(dx, dxBase + c, grad, cell.compare(VectorOperators.EQ, 0f), store);
            addWhere(dx, dxBase + channels + c, grad, cell.compare(VectorOperators.EQ, 1f), store);
            addWhere(dx, dxBase + rowStride + c, grad, cell.compare(VectorOperators.EQ, 2f), store);
            addWhere(dx, dxBase + rowStride + channels + c, grad, cell.compare(VectorOperators.EQ, 3f), store);
        }
    }

    /** {@code dx += grad} where {@code hit}; with {@code store}, {@code dx = hit ? grad : 0}. */
    private static void addWhere(float[] dx, int at, FloatVector grad, VectorMask<Float> hit, boolean store) {
        (store ? FloatVector.zero(S) : FloatVector.fromArray(S, dx, at)).add(grad, hit).intoArray(dx, at);
    }

    /** Per channel, the window's sum divided by its number of cells ({@code inv = 1 / count}). */
    private static void avgWindow(float[] x, int base, int rowStride, int channels, int rows, int cols, float inv,
                                  float[] y, int yi) {
        for (int c = 0; c < channels; c += L) {
            VectorMask<Float> m = S.indexInRange(c, channels);
            FloatVector sum = FloatVector.zero(S);
            for (int r = 0; r < rows; r++) {
                for (int q = 0; q < cols; q++) {
                    sum = sum.add(FloatVector.fromArray(S, x, base + r * rowStride + q * channels + c, m));
                }
            }
            sum.mul(inv).intoArray(y, yi + c, m);
        }
    }

    /** Adds {@code dy / count} to every cell of the window. */
    private static void avgWindowBackward(float[] dy, int gi, int count, float[] dx, int base, int rowStride,
                                          int channels, int rows, int cols) {
        for (int c = 0; c < channels; c += L) {
            VectorMask<Float> m = S.indexInRange(c, channels);
            FloatVector share = FloatVector.fromArray(S, dy, gi + c, m).div(count);
            for (int r = 0; r < rows; r++) {
                for (int q = 0; q < cols; q++) {
                    int at = base + r * rowStride + q * channels + c;
                    FloatVector.fromArray(S, dx, at, m).add(share).intoArray(dx, at, m);
                }
            }
        }
    }

    static void avgPool(PoolGeometry g, float[] x, int xOff, float[] y, int yOff) {
        int rows = g.batch() * g.outH();
        int grain = rowGrain(g);
        if (Split.serial(rows, grain)) {
            avgPoolRows(g, x, xOff, y, yOff, 0, rows);
        } else {
            PoolArgs r = poolArgs(g, x, xOff, y, yOff);
            r.forRange(rows, grain, Split.CHUNKS_PER_THREAD, (a, r0, r1) ->
                    avgPoolRows(a.pool, a.src, a.srcOff, a.dst, a.dstOff, r0, r1));
        }
    }

    private static void avgPoolRows(PoolGeometry g, float[] x, int xOff, float[] y, int yOff, int r0, int r1) {
        for (int row = r0; row < r1; row++) {
            int n = row / g.outH();
            int oh = row % g.outH();
            int h0 = oh * g.strideH() - g.padTop();
            int hLo = Math.max(0, h0);
            int rows = Math.min(g.height(), h0 + g.poolH()) - hLo;
            for (int ow = 0; ow < g.outW(); ow++) {
                int w0 = ow * g.strideW() - g.padLeft();
                int wLo = Math.max(0, w0);
                int cols = Math.min(g.width(), w0 + g.poolW()) - wLo;
                int count = ScalarKernels.unpaddedCells(g, oh, ow);
                avgWindow(x, xOff + cell(g, n, hLo, wLo), g.width() * g.channels(), g.channels(), rows, cols,
                        count == 0 ? 0f : 1f / count, y, yOff + (row * g.outW() + ow) * g.channels());
            }
        }
    }

    static void avgPoolBackward(PoolGeometry g, float[] dy, int dyOff, float[] dx, int dxOff) {
        int grain = imageGrain(g);
        if (Split.serial(g.batch(), grain)) {
            avgPoolBackwardImages(g, dy, dyOff, dx, dxOff, 0, g.batch());
        } else {
            PoolArgs r = poolArgs(g, dy, dyOff, dx, dxOff);
            r.forRange(g.batch(), grain, Split.CHUNKS_PER_THREAD, (a, n0, n1) ->
                    avgPoolBackwardImages(a.pool, a.src, a.srcOff, a.dst, a.dstOff, n0, n1));
        }
    }

    private static void avgPoolBackwardImages(PoolGeometry g, float[] dy, int dyOff, float[] dx, int dxOff, int n0,
                                              int n1) {
        int imageSize = g.height() * g.width() * g.channels();
        Arrays.fill(dx, dxOff + n0 * imageSize, dxOff + n1 * imageSize, 0f);
        for (int n = n0; n < n1; n++) {
            for (int oh = 0; oh < g.outH(); oh++) {
                int h0 = oh * g.strideH() - g.padTop();
                int hLo = Math.max(0, h0);
                int rows = Math.min(g.height(), h0 + g.poolH()) - hLo;
                for (int ow = 0; ow < g.outW(); ow++) {
                    int w0 = ow * g.strideW() - g.padLeft();
                    int wLo = Math.max(0, w0);
                    int cols = Math.min(g.width(), w0 + g.poolW()) - wLo;
                    int count = ScalarKernels.unpaddedCells(g, oh, ow);
                    if (count > 0) {
                        avgWindowBackward(dy, dyOff + ((n * g.outH() + oh) * g.outW() + ow) * g.channels(), count,
                                dx, dxOff + cell(g, n, hLo, wLo), g.width() * g.channels(), g.channels(), rows,
                                cols);
                    }
                }
            }
        }
    }

    /** The offset of channel 0 of pixel (n, ih, iw). */
    private static int cell(PoolGeometry g, int n, int ih, int iw) {
        return ((n * g.height() + ih) * g.width() + iw) * g.channels();
    }

    /** Output rows per parallel chunk. */
    private static int rowGrain(PoolGeometry g) {
        return Math.max(1, VectorElementwise.GRAIN / Math.max(1, g.outW() * g.channels() * g.poolH() * g.poolW()));
    }

    /** Images per parallel chunk. */
    private static int imageGrain(PoolGeometry g) {
        long perImage = Math.max(1L, (long) g.outH() * g.outW() * g.channels() * g.poolH() * g.poolW());
        return (int) Math.max(1, VectorElementwise.GRAIN / perImage);
    }
}
