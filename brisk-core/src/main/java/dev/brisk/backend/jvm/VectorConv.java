package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.Parallel;
import java.util.Arrays;

/**
 * Convolutions as gemm over {@link Im2Col} column matrices. The output rows are processed in chunks whose column
 * matrix fits in {@link #CHUNK_FLOATS} of per-thread scratch (so it is still in L2 when gemm reads it), and the
 * batch is split across threads by whole images, so that col2im's scatter never races (and gemm then runs
 * serially inside each thread). A 1x1, stride-1, unpadded kernel needs no column matrix at all, and a
 * single-channel input uses the transposed column matrix (see {@link #transposedColumns}). Shallow kernels skip
 * the column matrix in the forward pass ({@link VectorDirectConv}) and the filter gradient
 * ({@link VectorDirectFilterGradient}), to the same bits; so do convolutions whose result is one vector of channels
 * ({@link VectorNarrowConv}: forward, the input gradient at stride 1, the filter gradient), and the forward pass
 * of one gemm panel of channels ({@link VectorImplicitConv}: gemm's tile reading the windows in place, same bits).
 * 3x3 stride-1 convolutions of whole panels of channels take Winograd's F(2x2, 3x3) or F(4x4, 3x3) in all three
 * passes instead ({@link VectorWinogradConv}, {@link VectorWinogradFilterGradient}: 2.25x or 4x fewer multiply-adds,
 * bits of their own),
 * chosen by the geometry alone, so that every forward entry (with any activation, or pooled) gives the same bits.
 */
final class VectorConv {
    /** The most floats of column matrix a thread holds at once (512 KiB). */
    private static final int CHUNK_FLOATS = 1 << 17;
    /** Below this many multiply-adds a convolution runs on the calling thread. */
    private static final long PARALLEL_MIN_MACS = 1L << 17;

    private VectorConv() {
    }

    static void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] y, int yOff) {
        conv2d(g, x, xOff, w, wOff, null, 0, null, 0f, y, yOff);
    }

    /**
     * {@code y = fn(conv2d(x, w) + bias)}, the bias and activation applied by gemm to each block of output rows
     * as it is stored (see {@link VectorGemm#gemm}); a null {@code bias} or {@code fn} skips that part. With relu or
     * no activation, one vector of output channels is computed directly ({@link VectorNarrowConv}; a kernel three
     * wide at stride 1 in its own order, others to the same bits), and so is a shallow kernel
     * ({@link VectorDirectConv}, to the same bits).
     */
    static void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                       UnaryFn fn, float alpha, float[] y, int yOff) {
        if (VectorWinogradConv.applies(g)) {
            VectorWinogradConv.conv2d(g, x, xOff, w, wOff, bias, biasOff, fn, alpha, y, yOff);
        } else if ((fn == null || fn == UnaryFn.RELU) && VectorNarrowConv.applies(g)) {
            VectorNarrowConv.conv2d(g, x, xOff, w, wOff, bias, biasOff, fn == UnaryFn.RELU, y, yOff);
        } else if (VectorDirectConv.applies(g, fn)) {
            VectorDirectConv.conv2d(g, x, xOff, w, wOff, bias, biasOff, fn == UnaryFn.RELU, y, yOff);
        } else if (!isPointwise(g) && VectorImplicitConv.applies(g, fn)) {
            VectorImplicitConv.conv2d(g, x, xOff, w, wOff, bias, biasOff, fn == UnaryFn.RELU, y, yOff);
        } else {
            viaColumns(g, x, xOff, w, wOff, bias, biasOff, fn, alpha, y, yOff);
        }
    }

    /**
     * The forward convolution as im2col + gemm, whatever the depth: what {@link VectorDirectConv} reproduces bit
     * for bit for shallow kernels.
     */
    static void viaColumns(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                           UnaryFn fn, float alpha, float[] y, int yOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        if (isPointwise(g)) {
            VectorGemm.gemm(GemmArgs.get().product(false, false, rows(g), oc, k).a(x, xOff, k).b(w, wOff, oc)
                    .c(y, yOff, oc).epilogue(bias, biasOff, fn, alpha));
            return;
        }
        if (parallelOverImages(g)) {
            ConvArgs r = forwardArgs(g, x, xOff, w, wOff, y, yOff, bias, biasOff, fn, alpha);
            r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> { // images: free boundaries
                ConvGeometry geometry = a.conv;
                int perImage = geometry.outH() * geometry.outW();
                forwardRows(geometry, a.x, a.xOff, a.w, a.wOff, a.out, a.outOff, n0 * perImage, n1 * perImage,
                        a.bias, a.biasOff, a.fn, a.alpha);
            });
        } else {
            forwardRows(g, x, xOff, w, wOff, y, yOff, 0, rows(g), bias, biasOff, fn, alpha);
        }
    }

    /**
     * Whether {@link #conv2dMaxPool} runs this convolution, then this pooling of its whole output: an image's output
     * fits the per-thread buffer it is pooled from ({@link #CHUNK_FLOATS}: half of the 1 MB L2 measured, so it is
     * still in cache; W2's images are 86 KB and 31 KB), and the convolution is computed directly or through columns.
     */
    static boolean poolsInCache(ConvGeometry g, UnaryFn fn, PoolGeometry p) {
        boolean direct = (fn == null || fn == UnaryFn.RELU) && VectorNarrowConv.applies(g)
                || VectorDirectConv.applies(g, fn);
        return (direct || !isPointwise(g)) && p.batch() == g.batch()
                && p.height() == g.outH() && p.width() == g.outW() && p.channels() == g.outChannels()
                && (long) g.outH() * g.outW() * g.outChannels() <= CHUNK_FLOATS;
    }

    /**
     * {@link #conv2d}, then max pooling of its output (with cells, unless {@code cells} is null), a few whole images
     * at a time while they are in a per-thread buffer: the convolution's output is written nowhere else. Same bits
     * as the two calls: each output row's arithmetic does not depend on the rows computed with it.
     */
    static void conv2dMaxPool(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                              UnaryFn fn, float alpha, PoolGeometry p, float[] y, int yOff, float[] cells,
                              int cellsOff) {
        if (VectorWinogradConv.applies(g)) {
            VectorWinogradConv.conv2dMaxPool(g, x, xOff, w, wOff, bias, biasOff, fn, alpha, p, y, yOff, cells,
                    cellsOff);
        } else if ((fn == null || fn == UnaryFn.RELU) && VectorNarrowConv.applies(g)) {
            VectorNarrowConv.conv2dMaxPool(g, x, xOff, w, wOff, bias, biasOff, fn == UnaryFn.RELU, p, y, yOff, cells,
                    cellsOff);
        } else if (VectorDirectConv.applies(g, fn)) {
            VectorDirectConv.conv2dMaxPool(g, x, xOff, w, wOff, bias, biasOff, fn == UnaryFn.RELU, p, y, yOff, cells,
                    cellsOff);
        } else if (parallelOverImages(g)) {
            ConvArgs r = forwardArgs(g, x, xOff, w, wOff, y, yOff, bias, biasOff, fn, alpha);
            r.pool = p;
            r.cells = cells;
            r.cellsOff = cellsOff;
            r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> pooledImages(a.conv, a.x, a.xOff, a.w,
                    a.wOff, a.bias, a.biasOff, a.fn, a.alpha, a.pool, a.out, a.outOff, a.cells, a.cellsOff, n0, n1));
        } else {
            pooledImages(g, x, xOff, w, wOff, bias, biasOff, fn, alpha, p, y, yOff, cells, cellsOff, 0, g.batch());
        }
    }

    /** Images {@code [n0, n1)} of {@link #conv2dMaxPool} through columns: about a column chunk of them at a time. */
    private static void pooledImages(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias,
                                     int biasOff, UnaryFn fn, float alpha, PoolGeometry p, float[] y, int yOff,
                                     float[] cells, int cellsOff, int n0, int n1) {
        int perImage = g.outH() * g.outW();
        int imageFloats = perImage * g.outChannels();
        int images = Math.max(1, chunkRows(g) / perImage);
        float[] buffer = Scratch.get().image(images * imageFloats);
        for (int n = n0; n < n1; n += images) {
            int m = Math.min(images, n1 - n);
            // The buffer holds images n .. n + m - 1: offsets are those of the whole output, less n images.
            int shift = -n * imageFloats;
            forwardRows(g, x, xOff, w, wOff, buffer, shift, n * perImage, (n + m) * perImage, bias, biasOff, fn,
                    alpha);
            VectorPool.maxPoolRows(p, buffer, shift, y, yOff, cells, cellsOff, n * p.outH(), (n + m) * p.outH());
        }
    }

    /** This thread's convolution arguments with the geometry and the array written set. */
    private static ConvArgs convArgs(ConvGeometry g, float[] out, int outOff) {
        ConvArgs r = ConvArgs.get();
        r.conv = g;
        r.out = out;
        r.outOff = outOff;
        return r;
    }

    /** This thread's convolution arguments for the forward pass with its fused bias and activation. */
    private static ConvArgs forwardArgs(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] y,
                                        int yOff, float[] bias, int biasOff, UnaryFn fn, float alpha) {
        ConvArgs r = convArgs(g, y, yOff);
        r.x = x;
        r.xOff = xOff;
        r.w = w;
        r.wOff = wOff;
        r.bias = bias;
        r.biasOff = biasOff;
        r.fn = fn;
        r.alpha = alpha;
        return r;
    }

    /** Output rows {@code [from, to)}, a chunk at a time. */
    private static void forwardRows(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] y, int yOff,
                                    int from, int to, float[] bias, int biasOff, UnaryFn fn, float alpha) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        int chunk = chunkRows(g);
        for (int r0 = from; r0 < to; r0 += chunk) {
            int r1 = Math.min(to, r0 + chunk);
            float[] cols = Scratch.get().columns((r1 - r0) * k);
            if (transposedColumns(g)) {
                Im2Col.im2colTransposed(g, x, xOff, r0, r1, cols, 0, r1 - r0);
                VectorGemm.gemm(GemmArgs.get().product(true, false, r1 - r0, oc, k).a(cols, 0, r1 - r0)
                        .b(w, wOff, oc).c(y, yOff + r0 * oc, oc).epilogue(bias, biasOff, fn, alpha));
            } else {
                Im2Col.im2col(g, x, xOff, r0, r1, cols, 0);
                VectorGemm.gemm(GemmArgs.get().product(false, false, r1 - r0, oc, k).a(cols, 0, k).b(w, wOff, oc)
                        .c(y, yOff + r0 * oc, oc).epilogue(bias, biasOff, fn, alpha));
            }
        }
    }

    /**
     * The input gradient: a product with the transposed kernel into columns, scattered back by col2im; one vector
     * of input channels at stride 1 as a convolution of dy ({@link VectorNarrowInputGradient#backwardInput}), and
     * so is one gemm panel of them ({@link VectorImplicitInputGradient}); kernels three wide at stride 2 over whole
     * vectors of input channels straight from dy ({@link VectorStridedInputGradient}), and so are 1x1 kernels at a
     * stride over one or two vectors ({@link VectorPointwiseInputGradient}).
     */
    static void backwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        if (VectorWinogradConv.inputGradientApplies(g)) {
            VectorWinogradConv.backwardInput(g, dy, dyOff, w, wOff, dx, dxOff);
            return;
        }
        if (!isPointwise(g) && VectorNarrowConv.inputGradientApplies(g)) {
            VectorNarrowInputGradient.backwardInput(g, dy, dyOff, w, wOff, dx, dxOff);
            return;
        }
        if (VectorImplicitInputGradient.applies(g)) {
            VectorImplicitInputGradient.backwardInput(g, dy, dyOff, w, wOff, dx, dxOff);
            return;
        }
        if (VectorStridedInputGradient.applies(g)) {
            VectorStridedInputGradient.backwardInput(g, dy, dyOff, w, wOff, dx, dxOff);
            return;
        }
        if (VectorPointwiseInputGradient.applies(g)) {
            VectorPointwiseInputGradient.backwardInput(g, dy, dyOff, w, wOff, dx, dxOff);
            return;
        }
        if (isPointwise(g)) {
            VectorGemm.gemm(GemmArgs.get().product(false, true, rows(g), k, oc).a(dy, dyOff, oc).b(w, wOff, oc)
                    .c(dx, dxOff, k));
            return;
        }
        if (parallelOverImages(g)) {
            ConvArgs r = convArgs(g, dx, dxOff);
            r.dy = dy;
            r.dyOff = dyOff;
            r.w = w;
            r.wOff = wOff;
            r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) ->
                    backwardInputImages(a.conv, a.dy, a.dyOff, a.w, a.wOff, a.out, a.outOff, n0, n1));
        } else {
            backwardInputImages(g, dy, dyOff, w, wOff, dx, dxOff, 0, g.batch());
        }
    }

    /** dx of images {@code [n0, n1)}: cleared, then each chunk's column gradient scattered back by col2im. */
    private static void backwardInputImages(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx,
                                            int dxOff, int n0, int n1) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        int imageRows = g.outH() * g.outW();
        int imageSize = g.height() * g.width() * g.channels();
        Arrays.fill(dx, dxOff + n0 * imageSize, dxOff + n1 * imageSize, 0f);
        int chunk = chunkRows(g);
        int end = n1 * imageRows;
        for (int r0 = n0 * imageRows; r0 < end; r0 += chunk) {
            int r1 = Math.min(end, r0 + chunk);
            float[] cols = Scratch.get().columns((r1 - r0) * k);
            VectorGemm.gemm(GemmArgs.get().product(false, true, r1 - r0, k, oc).a(dy, dyOff + r0 * oc, oc)
                    .b(w, wOff, oc).c(cols, 0, k));
            Im2Col.col2im(g, cols, 0, r0, r1, dx, dxOff);
        }
    }

    static void backwardFilter(ConvGeometry g, float[] x, int xOff, float[] dy, int dyOff, float[] dw, int dwOff) {
        backwardFilter(g, x, xOff, dy, dyOff, null, null, 0, dw, dwOff);
    }

    /** Whether {@link #backwardFilter} takes dy as the gradient of a pooling of this convolution's output. */
    static boolean filterGradientOfPooled(ConvGeometry g, PoolGeometry pool) {
        return !isPointwise(g) && VectorDirectFilterGradient.applies(g) && PooledGradient.supports(pool)
                && pool.batch() == g.batch() && pool.height() == g.outH() && pool.width() == g.outW()
                && pool.channels() == g.outChannels();
    }

    /**
     * The filter gradient; with {@code pool} not null, {@code dy} is the gradient of max pooling this
     * convolution's output, routed through relu by the pool's {@code cells} as the kernel reads it (only where
     * {@link #filterGradientOfPooled} says so), with the same bits as from the routed gradient itself.
     */
    static void backwardFilter(ConvGeometry g, float[] x, int xOff, float[] dy, int dyOff, PoolGeometry pool,
                               float[] cells, int cellsOff, float[] dw, int dwOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        if (isPointwise(g)) {
            VectorGemm.gemm(GemmArgs.get().product(true, false, k, oc, rows(g)).a(x, xOff, k).b(dy, dyOff, oc)
                    .c(dw, dwOff, oc));
            return;
        }
        // The slots depend on the budget only, not on whether this call is nested in a region: a call that the
        // planner runs on one thread beside another instruction sums in the same order as a split one.
        int slots = worthSplitting(g) && Parallel.threads() > 1 ? Math.min(Parallel.threads(), g.batch()) : 1;
        if (slots == 1) {
            filterGradient(g, 0, g.batch(), x, xOff, dy, dyOff, pool, cells, cellsOff, dw, dwOff);
            return;
        }
        // Each slot sums its share of the batch into its own partial kernel; the partials are added at the end.
        int size = k * oc;
        float[] partials = Scratch.get().partials(slots * size);
        if (Parallel.insideRegion()) {
            for (int s = 0; s < slots; s++) {
                int n0 = (int) ((long) g.batch() * s / slots);
                int n1 = (int) ((long) g.batch() * (s + 1) / slots);
                filterGradient(g, n0, n1, x, xOff, dy, dyOff, pool, cells, cellsOff, partials, s * size);
            }
            VectorElementwise.sumSlices(partials, slots, size, dw, dwOff);
            return;
        }
        ConvArgs r = convArgs(g, partials, 0);
        r.x = x;
        r.xOff = xOff;
        r.dy = dy;
        r.dyOff = dyOff;
        r.slots = slots;
        r.size = size;
        r.pool = pool;
        r.cells = cells;
        r.cellsOff = cellsOff;
        r.forRange(slots, 1, (a, s0, s1) -> {
            ConvGeometry geometry = a.conv;
            for (int s = s0; s < s1; s++) {
                int n0 = (int) ((long) geometry.batch() * s / a.slots);
                int n1 = (int) ((long) geometry.batch() * (s + 1) / a.slots);
                filterGradient(geometry, n0, n1, a.x, a.xOff, a.dy, a.dyOff, a.pool, a.cells, a.cellsOff, a.out,
                        s * a.size);
            }
        });
        VectorElementwise.sumSlices(partials, slots, size, dw, dwOff);
    }

    /**
     * {@code dw = sum over images [n0, n1) of columns^T dy}, on the calling thread; a shallow kernel directly
     * ({@link VectorDirectFilterGradient}), to the same bits; one vector of output channels directly too
     * ({@link VectorNarrowFilterGradient#filterGradient}), summed per image; one gemm panel of them from the images
     * with the chains run on through the slot ({@link VectorImplicitFilterGradient}).
     */
    private static void filterGradient(ConvGeometry g, int n0, int n1, float[] x, int xOff, float[] dy, int dyOff,
                                       PoolGeometry pool, float[] cells, int cellsOff, float[] dw, int dwOff) {
        if (pool == null && VectorWinogradFilterGradient.applies(g)) {
            VectorWinogradFilterGradient.filterGradient(g, n0, n1, x, xOff, dy, dyOff, dw, dwOff);
        } else if (VectorDirectFilterGradient.applies(g)) {
            VectorDirectFilterGradient.filterGradient(g, n0, n1, chunkRows(g), x, xOff, dy, dyOff, pool, cells,
                    cellsOff, dw, dwOff);
        } else if (pool == null && VectorNarrowConv.filterGradientApplies(g)) {
            VectorNarrowFilterGradient.filterGradient(g, n0, n1, x, xOff, dy, dyOff, dw, dwOff);
        } else if (pool == null && !isPointwise(g) && VectorImplicitFilterGradient.applies(g)) {
            VectorImplicitFilterGradient.filterGradient(g, n0, n1, x, xOff, dy, dyOff, dw, dwOff);
        } else {
            filterGradientViaColumns(g, n0, n1, chunkRows(g), x, xOff, dy, dyOff, dw, dwOff);
        }
    }

    /** {@code dw = sum over images [n0, n1) of columns^T dy}, {@code chunk} output rows of columns at a time. */
    static void filterGradientViaColumns(ConvGeometry g, int n0, int n1, int chunk, float[] x, int xOff, float[] dy,
                                         int dyOff, float[] dw, int dwOff) {
        int k = Im2Col.rowLength(g);
        int oc = g.outChannels();
        int imageRows = g.outH() * g.outW();
        int start = n0 * imageRows;
        int end = n1 * imageRows;
        if (start == end) {
            Arrays.fill(dw, dwOff, dwOff + k * oc, 0f);
        }
        for (int r0 = start; r0 < end; r0 += chunk) {
            int r1 = Math.min(end, r0 + chunk);
            float[] cols = Scratch.get().columns((r1 - r0) * k);
            if (transposedColumns(g)) {
                Im2Col.im2colTransposed(g, x, xOff, r0, r1, cols, 0, r1 - r0);
                VectorGemm.gemm(GemmArgs.get().product(false, false, k, oc, r1 - r0).a(cols, 0, r1 - r0)
                        .b(dy, dyOff + r0 * oc, oc).c(dw, dwOff, oc).accumulate(r0 > start));
            } else {
                Im2Col.im2col(g, x, xOff, r0, r1, cols, 0);
                VectorGemm.gemm(GemmArgs.get().product(true, false, k, oc, r1 - r0).a(cols, 0, k)
                        .b(dy, dyOff + r0 * oc, oc).c(dw, dwOff, oc).accumulate(r0 > start));
            }
        }
    }

    /**
     * A single-channel image (the first layer on MNIST) makes row-major im2col a copy of {@code kw}-float runs;
     * the transposed column matrix is built from whole image rows instead, and gemm reads either layout.
     */
    private static boolean transposedColumns(ConvGeometry g) {
        return g.channels() == 1;
    }

    /** Whether to split the batch: there are two images or more and enough work for a parallel region. */
    private static boolean parallelOverImages(ConvGeometry g) {
        return worthSplitting(g) && !Parallel.insideRegion() && Parallel.threads() > 1;
    }

    /** There are two images or more and enough multiply-adds to split them. */
    private static boolean worthSplitting(ConvGeometry g) {
        long macs = (long) rows(g) * Im2Col.rowLength(g) * g.outChannels();
        return g.batch() > 1 && macs >= PARALLEL_MIN_MACS;
    }

    /** Rows per chunk: as many as fit the scratch budget, a multiple of gemm's register tile height. */
    static int chunkRows(ConvGeometry g) {
        int rows = Math.max(1, CHUNK_FLOATS / Im2Col.rowLength(g));
        return rows < VectorGemm.MR ? rows : rows / VectorGemm.MR * VectorGemm.MR;
    }

    private static int rows(ConvGeometry g) {
        return g.batch() * g.outH() * g.outW();
    }

    /** A 1x1 kernel at stride 1 without padding reads each pixel once: the image itself is the column matrix. */
    private static boolean isPointwise(ConvGeometry g) {
        return g.kernelH() == 1 && g.kernelW() == 1 && g.strideH() == 1 && g.strideW() == 1
                && g.padTop() == 0 && g.padLeft() == 0 && g.outH() == g.height() && g.outW() == g.width();
    }
}
