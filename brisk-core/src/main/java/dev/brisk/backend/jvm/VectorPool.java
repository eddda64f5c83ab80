package dev.brisk.backend.jvm;

import dev.brisk.backend.BinaryFn;
import dev.brisk.backend.Kernels.PoolGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Max and average pooling over NHWC images, vectorised along channels (contiguous in NHWC). Windows are clipped
 * to the image, which is how padding is ignored; the semantics are those of {@link ScalarKernels}. Forward
 * passes split output rows across threads, backward passes whole images (their windows may overlap), several
 * chunks per thread: every output row or image is computed on its own, so the split changes no bits.
 */
final class VectorPool {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private VectorPool() {
    }

    static void maxPool(PoolGeometry g, float[] x, int xOff, float[] y, int yOff) {
        int rows = g.batch() * g.outH();
        int grain = rowGrain(g);
        if (Split.serial(rows, grain)) {
            maxPoolRows(g, x, xOff, y, yOff, 0, rows);
        } else {
            RegionArgs r = poolArgs(g, x, xOff, y, yOff);
            r.forRange(rows, grain, Split.CHUNKS_PER_THREAD, (a, r0, r1) ->
                    maxPoolRows((PoolGeometry) a.o0, a.f0, a.i0, a.f1, a.i1, r0, r1));
        }
    }

    /** Output rows {@code [r0, r1)} of the {@code batch x outH} rows. */
    private static void maxPoolRows(PoolGeometry g, float[] x, int xOff, float[] y, int yOff, int r0, int r1) {
        for (int row = r0; row < r1; row++) {
            int n = row / g.outH();
            int h0 = row % g.outH() * g.strideH() - g.padTop();
            int hLo = Math.max(0, h0);
            int rows = Math.min(g.height(), h0 + g.poolH()) - hLo;
            for (int ow = 0; ow < g.outW(); ow++) {
                int w0 = ow * g.strideW() - g.padLeft();
                int wLo = Math.max(0, w0);
                int cols = Math.min(g.width(), w0 + g.poolW()) - wLo;
                maxWindow(x, xOff + cell(g, n, hLo, wLo), g.width() * g.channels(), g.channels(), rows, cols,
                        y, yOff + (row * g.outW() + ow) * g.channels());
            }
        }
    }

    static void maxPoolBackward(PoolGeometry g, float[] x, int xOff, float[] dy, int dyOff, float[] dx, int dxOff) {
        maxPoolBackward(g, x, xOff, dy, dyOff, null, 0f, null, 0, dx, dxOff);
    }

    /**
     * Max pooling's backward, then {@code dx = fn(gate, dx)} (an activation's gradient) on each image as soon as
     * it is written, while it is still in cache; a null {@code fn} is plain {@link #maxPoolBackward}.
     */
    static void maxPoolBackward(PoolGeometry g, float[] x, int xOff, float[] dy, int dyOff, BinaryFn fn,
                                float alpha, float[] gate, int gateOff, float[] dx, int dxOff) {
        int grain = imageGrain(g);
        if (Split.serial(g.batch(), grain)) {
            maxPoolBackwardImages(g, x, xOff, dy, dyOff, dx, dxOff, 0, g.batch(), fn, alpha, gate, gateOff);
        } else {
            RegionArgs r = poolArgs(g, x, xOff, dy, dyOff);
            r.f2 = dx;
            r.i2 = dxOff;
            r.o1 = fn;
            r.s0 = alpha;
            r.f3 = gate;
            r.i3 = gateOff;
            r.forRange(g.batch(), grain, Split.CHUNKS_PER_THREAD, (a, n0, n1) ->
                    maxPoolBackwardImages((PoolGeometry) a.o0, a.f0, a.i0, a.f1, a.i1, a.f2, a.i2, n0, n1,
                            (BinaryFn) a.o1, a.s0, a.f3, a.i3));
        }
    }

    /** dx of images {@code [n0, n1)}, each gated by {@code fn} once complete (when {@code fn} is not null). */
    private static void maxPoolBackwardImages(PoolGeometry g, float[] x, int xOff, float[] dy, int dyOff, float[] dx,
                                              int dxOff, int n0, int n1, BinaryFn fn, float alpha, float[] gate,
                                              int gateOff) {
        int imageSize = g.height() * g.width() * g.channels();
        // Windows that tile the image exactly write every cell of dx once: nothing to clear first, and each cell is
        // stored rather than added to.
        boolean tiles = tilesExactly(g);
        // Relu's gradient read from this same x (the planner's usual case): a cell keeps its gradient only where
        // x > 0, decided inside the 2x2 window kernel instead of in a pass over the image.
        boolean reluInWindow = fn == BinaryFn.RELU_GRAD && gate == x && gateOff == xOff && tiles && g.poolH() == 2
                && g.poolW() == 2 && g.channels() % L == 0;
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
                    int at = cell(g, n, hLo, wLo);
                    int gi = dyOff + ((n * g.outH() + oh) * g.outW() + ow) * g.channels();
                    if (reluInWindow) {
                        maxWindow2x2BackwardRelu(x, xOff + at, g.width() * g.channels(), g.channels(), dy, gi, dx,
                                dxOff + at);
                    } else {
                        maxWindowBackward(x, xOff + at, g.width() * g.channels(), g.channels(), rows, cols, dy, gi,
                                dx, dxOff + at, tiles);
                    }
                }
            }
            if (fn != null && !reluInWindow) {
                VectorEpilogue.gate(fn, alpha, gate, gateOff + n * imageSize, dx, dxOff + n * imageSize, imageSize);
            }
        }
    }

    /** This thread's region arguments with the geometry and two arrays set. */
    private static RegionArgs poolArgs(PoolGeometry g, float[] first, int firstOff, float[] second, int secondOff) {
        RegionArgs r = RegionArgs.get();
        r.o0 = g;
        r.f0 = first;
        r.i0 = firstOff;
        r.f1 = second;
        r.i1 = secondOff;
        return r;
    }

    /** True when the pooling windows cover every cell of the image exactly once (no padding, no overlap, no rest). */
    private static boolean tilesExactly(PoolGeometry g) {
        return g.padTop() == 0 && g.padLeft() == 0 && g.strideH() == g.poolH() && g.strideW() == g.poolW()
                && g.outH() * g.strideH() == g.height() && g.outW() * g.strideW() == g.width();
    }

    // The window kernels below hold all the vector code: small methods called once per window get compiled
    // early and whole, so no vector ever crosses into code the JIT has not compiled yet (where it would be boxed).

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

    /**
     * Adds each channel's {@code dy} to the first cell of the window that holds its maximum; with {@code store}
     * (windows that tile the image), writes it there and 0 to the window's other cells instead.
     */
    private static void maxWindowBackward(float[] x, int base, int rowStride, int channels, int rows, int cols,
                                          float[] dy, int gi, float[] dx, int dxBase, boolean store) {
        if (rows <= 0 || cols <= 0) {
            return;
        }
        if (rows == 2 && cols == 2 && channels % L == 0) {
            maxWindow2x2Backward(x, base, rowStride, channels, dy, gi, dx, dxBase, store);
        } else {
            maxWindowBackwardMasked(x, base, rowStride, channels, rows, cols, dy, gi, dx, dxBase, store);
        }
    }

    // A method of its own, with only arrays and ints for arguments: compiled inside maxWindowBackward while the 2x2
    // branch was the hot one, this loop's vector calls were left cold and uninlined. And the cell that takes the
    // gradient is found by its index, not by a mask of cells still pending carried through the loops with an
    // early exit: after VectorKernelsTest (windows cut by padding, accumulating as well as storing) C2 kept that
    // mask and the chosen vector boxed, 9 KB per call.
    private static void maxWindowBackwardMasked(float[] x, int base, int rowStride, int channels, int rows, int cols,
                                                float[] dy, int gi, float[] dx, int dxBase, boolean store) {
        for (int c = 0; c < channels; c += L) {
            VectorMask<Float> m = S.indexInRange(c, channels);
            // The first cell holding the maximum: a later cell replaces it only when strictly greater, so a NaN in
            // the first cell, or a tie, keeps the first.
            FloatVector best = FloatVector.fromArray(S, x, base + c, m);
            FloatVector bestCell = FloatVector.zero(S);
            for (int r = 0; r < rows; r++) {
                for (int q = 0; q < cols; q++) {
                    FloatVector v = FloatVector.fromArray(S, x, base + r * rowStride + q * channels + c, m);
                    VectorMask<Float> greater = v.compare(VectorOperators.GT, best);
                    best = best.blend(v, greater);
                    bestCell = bestCell.blend(r * cols + q, greater);
                }
            }
            FloatVector grad = FloatVector.fromArray(S, dy, gi + c, m);
            for (int r = 0; r < rows; r++) {
                for (int q = 0; q < cols; q++) {
                    int at = dxBase + r * rowStride + q * channels + c;
                    VectorMask<Float> hit = bestCell.compare(VectorOperators.EQ, r * cols + q);
                    if (store) {
                        FloatVector.zero(S).add(grad, hit).intoArray(dx, at, m);
                    } else {
                        FloatVector.fromArray(S, dx, at, m).add(grad, hit).intoArray(dx, at, m);
                    }
                }
            }
        }
    }

    // The usual 2x2 window over whole vectors of channels, written out: no masks and no loops over cells, which
    // made the general window kernels above the slowest part of a small CNN's step (2 ms per 128-image batch).
    // Same rule as there: a later cell wins only when strictly greater, the gradient goes to the first maximum.

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

    // The backward kernels find the cell that takes the gradient from the comparisons of the forward scan itself:
    // the winner is the last cell that was strictly greater than the maximum so far (so the first of equal maxima,
    // and the first cell when it is NaN, as in the forward pass). Comparing every cell with the maximum again, as
    // these kernels once did, took twice the instructions, and the kernel ran at a third of the memory's speed.

    private static void maxWindow2x2Backward(float[] x, int base, int rowStride, int channels, float[] dy, int gi,
                                             float[] dx, int dxBase, boolean store) {
        int b = base + channels;
        int d = base + rowStride;
        int e = base + rowStride + channels;
        for (int c = 0; c < channels; c += L) {
            FloatVector best = FloatVector.fromArray(S, x, base + c);
            FloatVector vb = FloatVector.fromArray(S, x, b + c);
            VectorMask<Float> overB = vb.compare(VectorOperators.GT, best);
            best = best.blend(vb, overB);
            FloatVector vd = FloatVector.fromArray(S, x, d + c);
            VectorMask<Float> overD = vd.compare(VectorOperators.GT, best);
            best = best.blend(vd, overD);
            VectorMask<Float> overE = FloatVector.fromArray(S, x, e + c).compare(VectorOperators.GT, best);
            VectorMask<Float> laterThanB = overD.or(overE);
            FloatVector grad = FloatVector.fromArray(S, dy, gi + c);
            addWhere(dx, dxBase + c, grad, overB.or(laterThanB).not(), store);
            addWhere(dx, dxBase + channels + c, grad, overB.andNot(laterThanB), store);
            addWhere(dx, dxBase + rowStride + c, grad, overD.andNot(overE), store);
            addWhere(dx, dxBase + rowStride + channels + c, grad, overE, store);
        }
    }

    /**
     * {@link #maxWindow2x2Backward} storing, then relu's gradient with x as relu's output: a cell keeps its share
     * only where {@code x > 0}, and the cell that takes it holds the maximum, so {@code max > 0} decides for all
     * four. Same bits as the two passes: {@code x > 0 ? (hit ? 0 + grad : 0) : 0}.
     */
    private static void maxWindow2x2BackwardRelu(float[] x, int base, int rowStride, int channels, float[] dy, int gi,
                                                 float[] dx, int dxBase) {
        int b = base + channels;
        int d = base + rowStride;
        int e = base + rowStride + channels;
        for (int c = 0; c < channels; c += L) {
            FloatVector best = FloatVector.fromArray(S, x, base + c);
            FloatVector vb = FloatVector.fromArray(S, x, b + c);
            VectorMask<Float> overB = vb.compare(VectorOperators.GT, best);
            best = best.blend(vb, overB);
            FloatVector vd = FloatVector.fromArray(S, x, d + c);
            VectorMask<Float> overD = vd.compare(VectorOperators.GT, best);
            best = best.blend(vd, overD);
            FloatVector ve = FloatVector.fromArray(S, x, e + c);
            VectorMask<Float> overE = ve.compare(VectorOperators.GT, best);
            best = best.blend(ve, overE);
            VectorMask<Float> positive = best.compare(VectorOperators.GT, 0f);
            VectorMask<Float> laterThanB = overD.or(overE);
            FloatVector grad = FloatVector.fromArray(S, dy, gi + c);
            addWhere(dx, dxBase + c, grad, positive.andNot(overB.or(laterThanB)), true);
            addWhere(dx, dxBase + channels + c, grad, overB.andNot(laterThanB).and(positive), true);
            addWhere(dx, dxBase + rowStride + c, grad, overD.andNot(overE).and(positive), true);
            addWhere(dx, dxBase + rowStride + channels + c, grad, overE.and(positive), true);
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
            RegionArgs r = poolArgs(g, x, xOff, y, yOff);
            r.forRange(rows, grain, Split.CHUNKS_PER_THREAD, (a, r0, r1) ->
                    avgPoolRows((PoolGeometry) a.o0, a.f0, a.i0, a.f1, a.i1, r0, r1));
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
            RegionArgs r = poolArgs(g, dy, dyOff, dx, dxOff);
            r.forRange(g.batch(), grain, Split.CHUNKS_PER_THREAD, (a, n0, n1) ->
                    avgPoolBackwardImages((PoolGeometry) a.o0, a.f0, a.i0, a.f1, a.i1, n0, n1));
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
