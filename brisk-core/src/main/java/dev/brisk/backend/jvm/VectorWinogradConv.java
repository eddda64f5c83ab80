package dev.brisk.backend.jvm;

import dev.brisk.config.Settings;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.UnaryFn;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * 3x3 stride-1 convolutions by Winograd's minimal filtering F(2x2, 3x3): each 2x2 block of output pixels (a tile)
 * takes 16 products per input and output channel where the direct convolution takes 36, so 2.25x fewer
 * multiply-adds. Per tile, the 4x4 input window {@code d} becomes {@code V = B^T d B}, the 3x3 filter {@code g}
 * becomes {@code U = G g G^T}, and the tile's outputs are {@code A^T (sum over channels of U . V) A}:
 * <pre>
 *   B^T = | 1  0 -1  0 |    G = | 1    0    0   |    A^T = | 1  1  1  0 |
 *         | 0  1  1  0 |        | 1/2  1/2  1/2 |          | 0  1 -1 -1 |
 *         | 0 -1  1  0 |        | 1/2 -1/2  1/2 |
 *         | 0  1  0 -1 |        | 0    0    1   |
 * </pre>
 * The sum over channels is 16 small matrix products, one per position of the 4x4 transform. An earlier version of
 * this kernel ran the 16 products for blocks of 128 tiles through {@link VectorGemm}, with the transformed inputs
 * and the products going to and from L2: it was no faster than the direct kernels, the transforms costing about what
 * the products saved. Here everything for a group of {@link VectorGemm#MR} tiles stays in L1: the group's inputs are
 * transformed into a small buffer, its 16 products for one panel of output channels go into another (gemm's register
 * kernel, {@link VectorGemm#kernelRows}, over depth {@code cin}; each tile's 16 positions a constant distance apart,
 * so the JIT checks the output transform's sixteen reads as one range), and the output transform reads that buffer
 * and writes the outputs, with the bias and relu. Only the transformed filter (16 {@code cin x cout} matrices) is
 * read from L2. The filter gradient is {@link VectorWinogradFilterGradient}'s.
 *
 * <p>The input gradient of such a convolution is one too, over dy with the filter turned and its channel axes
 * swapped ({@link VectorNarrowInputGradient#transposed}), and runs here as well. Each output's arithmetic depends
 * only on its own tile, so the result does not depend on how the images are split across threads; it differs from
 * the direct kernels' bits (a different sum), by about as much as they differ from an exact product (the Winograd
 * transform of F(2x2, 3x3) has coefficients 1 and 1/2 only).
 *
 * <p>Where F(4x4, 3x3) saves a quarter of the products or more ({@link #tile}), the same loops take 4x4 tiles, 6x6
 * windows and 36 positions, with {@link VectorWinograd4}'s transforms: 1.78x fewer products than F(2x2, 3x3) on
 * whole tiles. Against F(2x2, 3x3), one thread, 128 images: 7x7 64->64 forward / input / filter gradient 1.38 /
 * 1.46 / 1.51x, 14x14 32->32 1.16 / 1.16 / 1.24x, 28x28 32->32 1.28 / 1.32 / 1.59x; at two threads 1.10-1.13 /
 * 1.17-1.24 / 1.34-1.66x at 7x7 and 14x14.
 */
final class VectorWinogradConv {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final int NR = VectorGemm.NR;
    private static final int MR = VectorGemm.MR;
    /** Positions of the 4x4 transform. */
    static final int POSITIONS = 16;
    /**
     * The tile {@code -Dbrisk.winogradTile} asks for (2 or 4), or 0 to let {@link #tile} choose. Not final so that
     * tests can run both transforms on the same shapes.
     */
    static int forcedTile = Settings.winogradTile();
    /** {@code -Dbrisk.winograd=false} keeps every convolution on the direct kernels, to compare against. */
    private static final boolean ENABLED = Settings.winograd();
    /**
     * The largest transformed filter (16 {@code cin x cout} matrices) taken: every group of six tiles reads all of
     * it. Measured faster than the direct kernels up to 256 x 256 channels (4 MiB, from L3); wider convolutions
     * keep the direct kernels until the products loop over panels of the filter outside the tiles.
     */
    private static final int MAX_FILTER_FLOATS = 1 << 20;
    /**
     * The most pixels the tiles may cover, per pixel of the output. A 7x7 output takes 4x4 tiles, 8x8 pixels (1.31):
     * at 64 channels, one thread, the three passes measured 1.2-1.3x the direct kernels once tiles were grouped
     * across images (per image, 16 tiles left groups of six a third short and the filter gradient's products 16
     * deep: 0.9-1.05x). 5x5 (1.44) stays direct.
     */
    private static final double MAX_TILED_AREA = 1.35;
    /** Below this many multiply-adds (of the direct convolution) the call runs on the calling thread. */
    private static final long PARALLEL_MIN_MACS = 1L << 17;

    private VectorWinogradConv() {
    }

    /**
     * Whether this kernel computes the forward convolution {@code g}, whatever its activation (the kernel of a
     * convolution does not depend on what follows it, so a fused activation gives the bits of the separate op): 3x3
     * at stride 1; both channel counts whole panels of gemm's register tile ({@link VectorGemm#NR}), because at a
     * depth of one vector the products' loop is too short to pay and one vector of output channels leaves a broadcast
     * per FMA (16 channels in and out measured 0.8-0.94x the direct kernel, with a kernel of its own); a transformed
     * filter of at most {@link #MAX_FILTER_FLOATS}; and tiles that cover the output with at most {@link
     * #MAX_TILED_AREA} times its pixels.
     */
    static boolean applies(ConvGeometry g) {
        long tiled = 4L * ((g.outH() + 1) / 2) * ((g.outW() + 1) / 2);
        return ENABLED && g.kernelH() == 3 && g.kernelW() == 3 && g.strideH() == 1 && g.strideW() == 1
                && g.padTop() >= 0 && g.padLeft() >= 0 && g.outH() >= 2 && g.outW() >= 2
                && g.channels() % NR == 0 && g.outChannels() % NR == 0
                && (long) POSITIONS * g.channels() * g.outChannels() <= MAX_FILTER_FLOATS
                && tiled <= MAX_TILED_AREA * g.outH() * g.outW();
    }

    /**
     * The output pixels along a side of {@code g}'s tiles: 4 (F(4x4, 3x3), {@link VectorWinograd4}) where its
     * products are at most three quarters of F(2x2, 3x3)'s, counting the pixels both cover past the output's edge,
     * and its transformed filter is at most {@link #MAX_FILTER_FLOATS}; else 2.
     */
    static int tile(ConvGeometry g) {
        if (forcedTile != 0) {
            return forcedTile;
        }
        long two = 16L * ((g.outH() + 1) / 2) * ((g.outW() + 1) / 2);
        long four = 36L * ((g.outH() + 3) / 4) * ((g.outW() + 3) / 4);
        boolean fits = (long) VectorWinograd4.POSITIONS * g.channels() * g.outChannels() <= MAX_FILTER_FLOATS;
        return fits && 4 * four <= 3 * two ? 4 : 2;
    }

    /** Positions of the transform of tiles {@code m} pixels wide: {@code (m + 2)^2}. */
    static int positions(int m) {
        return (m + 2) * (m + 2);
    }

    /**
     * Whether this kernel computes the input gradient of {@code g} (as the forward convolution of its dy). The
     * transposed geometry is asked for last: it is cached per thread for a few shapes only.
     */
    static boolean inputGradientApplies(ConvGeometry g) {
        return applies(g) && g.padTop() <= 2 && g.padLeft() <= 2 && applies(VectorNarrowInputGradient.transposed(g));
    }

    /** {@code y = fn(conv2d(x, w) + bias)}; a null {@code bias} or {@code fn} skips that part. */
    static void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                       UnaryFn fn, float alpha, float[] y, int yOff) {
        float[] u = transformFilter(g, w, wOff, false);
        run(g, x, xOff, u, bias, biasOff, fn, alpha, y, yOff);
    }

    /** The input gradient of {@code g}: the forward convolution of dy by the turned, transposed filter. */
    static void backwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff) {
        ConvGeometry t = VectorNarrowInputGradient.transposed(g);
        float[] u = transformFilter(t, w, wOff, true);
        run(t, dy, dyOff, u, null, 0, null, 0f, dx, dxOff);
    }

    /**
     * {@link #conv2d}, then max pooling of its output (with cells, unless {@code cells} is null), one image at a time
     * while it is in a per-thread buffer: the convolution's output is written nowhere else. Same bits as the two
     * calls.
     */
    static void conv2dMaxPool(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                              UnaryFn fn, float alpha, PoolGeometry p, float[] y, int yOff, float[] cells,
                              int cellsOff) {
        float[] u = transformFilter(g, w, wOff, false);
        if (serial(g)) {
            pooledImages(g, x, xOff, u, bias, biasOff, fn, alpha, p, y, yOff, cells, cellsOff, 0, g.batch());
            return;
        }
        ConvArgs r = args(g, x, xOff, u, bias, biasOff, fn, alpha, y, yOff);
        r.pool = p;
        r.cells = cells;
        r.cellsOff = cellsOff;
        r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> pooledImages(a.conv, a.x, a.xOff, a.w,
                a.bias, a.biasOff, a.fn, a.alpha, a.pool, a.out, a.outOff, a.cells, a.cellsOff, n0, n1));
    }

    /** Images {@code [n0, n1)} of {@link #conv2dMaxPool}, each convolved into this thread's buffer, then pooled. */
    private static void pooledImages(ConvGeometry g, float[] x, int xOff, float[] u, float[] bias, int biasOff,
                                     UnaryFn fn, float alpha, PoolGeometry p, float[] y, int yOff, float[] cells,
                                     int cellsOff, int n0, int n1) {
        int imageFloats = g.outH() * g.outW() * g.outChannels();
        float[] buffer = Scratch.get().image(imageFloats);
        for (int n = n0; n < n1; n++) {
            // The buffer holds image n: offsets are those of the whole output, less n images.
            int shift = -n * imageFloats;
            images(g, x, xOff, u, bias, biasOff, fn, alpha, buffer, shift, n, n + 1);
            VectorPool.maxPoolRows(p, buffer, shift, y, yOff, cells, cellsOff, n * p.outH(), (n + 1) * p.outH());
        }
    }

    /**
     * Images {@code [n0, n1)} of the forward convolution on the calling thread, image n's output at
     * {@code yOff + n outH outW outChannels}, its filter already transformed ({@link #transformFilter}). The bias
     * and relu are applied by the output transform; another activation to each image once it is written, by the
     * unary op's own loops ({@link VectorEpilogue#biasActivation}).
     */
    static void images(ConvGeometry g, float[] x, int xOff, float[] u, float[] bias, int biasOff, UnaryFn fn,
                       float alpha, float[] y, int yOff, int n0, int n1) {
        boolean relu = fn == UnaryFn.RELU;
        boolean otherFn = fn != null && !relu;
        int c = g.channels();
        int oc = g.outChannels();
        int panels = oc / NR;
        int side = tile(g);
        int positions = positions(side);
        int tilesW = tilesW(g);
        int tiles = tiles(g);
        Scratch scratch = Scratch.get();
        float[] v = scratch.winogradInput(MR * positions * c);
        float[] m = scratch.winogradProducts(MR * positions * NR);
        float[] buf = side == 4 ? VectorWinograd4.buffer() : null;
        int imageOut = g.outH() * g.outW() * oc;
        // Tiles are numbered across the images, so that a group may end in the next image (a 7x7 output has 16
        // tiles an image, which groups of six would leave a third of a group short).
        int total = (n1 - n0) * tiles;
        float[] image = null;
        int loaded = -1;
        int activated = n0;
        for (int q0 = 0; q0 < total; q0 += MR) {
            int count = Math.min(MR, total - q0);
            for (int t = 0; t < MR; t++) {
                // Rows past the last tile repeat it; they are computed and dropped.
                int q = q0 + Math.min(t, count - 1);
                int n = n0 + q / tiles;
                if (n != loaded) {
                    image = padded(g, x, xOff, n);
                    loaded = n;
                }
                transformTile(g, side, tilesW, image, q % tiles, v, t * positions * c, buf);
            }
            for (int jp = 0; jp < panels; jp++) {
                for (int k = 0; k < positions; k++) {
                    VectorGemm.kernelRows(c, v, k * c, positions * c, u, (k * panels + jp) * c * NR, m, k * NR,
                            positions * NR, false);
                }
                for (int t = 0; t < count; t++) {
                    int q = (q0 + t) % tiles;
                    int n = n0 + (q0 + t) / tiles;
                    int oy = side * (q / tilesW);
                    int ox = side * (q % tilesW);
                    int yi = yOff + n * imageOut + (oy * g.outW() + ox) * oc + jp * NR;
                    for (int cv = 0; cv < NR; cv += L) {
                        int b = bias == null ? 0 : biasOff + jp * NR + cv;
                        int mi = t * positions * NR + cv;
                        if (side == 4) {
                            VectorWinograd4.transformOutput(m, mi, NR, bias, b, relu, y, yi + cv, oc, g.outW() * oc,
                                    Math.min(4, g.outH() - oy), Math.min(4, g.outW() - ox), buf);
                        } else {
                            transformOutput(m, mi, bias, b, relu, y, yi + cv, oc, g.outW() * oc, oy + 1 < g.outH(),
                                    ox + 1 < g.outW());
                        }
                    }
                }
            }
            // Another activation over the images this group completed, while they are still in cache.
            int complete = n0 + (q0 + count) / tiles;
            if (otherFn && complete > activated) {
                VectorEpilogue.biasActivation(y, yOff + activated * imageOut, oc,
                        (complete - activated) * g.outH() * g.outW(), oc, null, 0, fn, alpha);
                activated = complete;
            }
        }
    }

    /** Runs {@link #images} over the batch, split across threads by whole images. */
    private static void run(ConvGeometry g, float[] x, int xOff, float[] u, float[] bias, int biasOff, UnaryFn fn,
                            float alpha, float[] y, int yOff) {
        if (serial(g)) {
            images(g, x, xOff, u, bias, biasOff, fn, alpha, y, yOff, 0, g.batch());
            return;
        }
        // Images: each output is written once, from its own tile, so any boundary will do.
        args(g, x, xOff, u, bias, biasOff, fn, alpha, y, yOff).forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD,
                (a, n0, n1) -> images(a.conv, a.x, a.xOff, a.w, a.bias, a.biasOff, a.fn, a.alpha, a.out, a.outOff,
                        n0, n1));
    }

    /** Whether the call runs on the calling thread: too little work, or one thread. */
    private static boolean serial(ConvGeometry g) {
        long macs = 9L * g.batch() * g.outH() * g.outW() * g.channels() * g.outChannels();
        return macs < PARALLEL_MIN_MACS || Split.serial(g.batch(), 1);
    }

    /** This thread's convolution arguments, the transformed filter in {@code w}. */
    private static ConvArgs args(ConvGeometry g, float[] x, int xOff, float[] u, float[] bias, int biasOff,
                                 UnaryFn fn, float alpha, float[] y, int yOff) {
        ConvArgs r = ConvArgs.get();
        r.conv = g;
        r.x = x;
        r.xOff = xOff;
        r.w = u;
        r.bias = bias;
        r.biasOff = biasOff;
        r.fn = fn;
        r.alpha = alpha;
        r.out = y;
        r.outOff = yOff;
        return r;
    }

    /**
     * The filter as 16 transformed matrices {@code U = G g G^T}, in panels of output channels: position k, panel
     * jp, input channel p, output channel j at {@code ((k panels + jp) cin + p) NR + j % NR}. For the input gradient
     * ({@code turned}), {@code g} is the transposed convolution and its filter is {@code w} turned 180 degrees with
     * the channel axes swapped. In the calling thread's scratch; the region's threads only read it.
     */
    static float[] transformFilter(ConvGeometry g, float[] w, int wOff, boolean turned) {
        int c = g.channels();
        int oc = g.outChannels();
        int panels = oc / NR;
        int side = tile(g);
        float[] u = Scratch.get().winogradFilter(positions(side) * c * oc);
        if (side == 4) {
            // A vector of output channels at a time, from the filter's own layout (turned and swapped first).
            float[] source = turned ? turnedCopy(w, wOff, c, oc) : w;
            int base = turned ? 0 : wOff;
            float[] buf = VectorWinograd4.buffer();
            for (int p = 0; p < c; p++) {
                for (int j = 0; j < oc; j += L) {
                    VectorWinograd4.transformFilter(source, base + p * oc + j, c * oc, u,
                            ((j / NR) * c + p) * NR + j % NR, panels * c * NR, buf);
                }
            }
            return u;
        }
        for (int p = 0; p < c; p++) {
            for (int j = 0; j < oc; j++) {
                // Tap (i, jj) of the 3x3 filter from input channel p to output channel j.
                int tap0 = turned ? wOff + (8 * oc + j) * c + p : wOff + p * oc + j;
                int tapStep = turned ? -oc * c : c * oc;
                float g00 = w[tap0];
                float g01 = w[tap0 + tapStep];
                float g02 = w[tap0 + 2 * tapStep];
                float g10 = w[tap0 + 3 * tapStep];
                float g11 = w[tap0 + 4 * tapStep];
                float g12 = w[tap0 + 5 * tapStep];
                float g20 = w[tap0 + 6 * tapStep];
                float g21 = w[tap0 + 7 * tapStep];
                float g22 = w[tap0 + 8 * tapStep];
                // G g: rows 0..3 of a 4x3 matrix.
                float a00 = g00;
                float a01 = g01;
                float a02 = g02;
                float a10 = 0.5f * (g00 + g20 + g10);
                float a11 = 0.5f * (g01 + g21 + g11);
                float a12 = 0.5f * (g02 + g22 + g12);
                float a20 = 0.5f * (g00 + g20 - g10);
                float a21 = 0.5f * (g01 + g21 - g11);
                float a22 = 0.5f * (g02 + g22 - g12);
                float a30 = g20;
                float a31 = g21;
                float a32 = g22;
                int jp = j / NR;
                int base = (jp * c + p) * NR + j % NR;
                int step = panels * c * NR;
                storeRow(u, base, step, 0, a00, a01, a02);
                storeRow(u, base, step, 1, a10, a11, a12);
                storeRow(u, base, step, 2, a20, a21, a22);
                storeRow(u, base, step, 3, a30, a31, a32);
            }
        }
        return u;
    }

    /**
     * The filter at {@code wOff} turned 180 degrees with its channel axes swapped, in the layout of a filter from
     * {@code c} to {@code oc} channels (the transposed convolution's): tap t, channel p, channel j at
     * {@code (t c + p) oc + j}. In the calling thread's scratch.
     */
    private static float[] turnedCopy(float[] w, int wOff, int c, int oc) {
        float[] copy = Scratch.get().winogradTurned(9 * c * oc);
        for (int t = 0; t < 9; t++) {
            for (int j = 0; j < oc; j++) {
                int from = wOff + ((8 - t) * oc + j) * c;
                int to = t * c * oc + j;
                for (int p = 0; p < c; p++) {
                    copy[to + p * oc] = w[from + p];
                }
            }
        }
        return copy;
    }

    /** Row {@code r} of {@code U = (G g) G^T} from row r of {@code G g}: positions {@code 4 r .. 4 r + 3}. */
    private static void storeRow(float[] u, int base, int step, int r, float a0, float a1, float a2) {
        int k = 4 * r;
        u[base + k * step] = a0;
        u[base + (k + 1) * step] = 0.5f * (a0 + a2 + a1);
        u[base + (k + 2) * step] = 0.5f * (a0 + a2 - a1);
        u[base + (k + 3) * step] = a2;
    }

    /** Tiles in a row of the output: blocks of {@link #tile} pixels, the last cut by the edge. */
    static int tilesW(ConvGeometry g) {
        int m = tile(g);
        return (g.outW() + m - 1) / m;
    }

    /** Tiles of one image's output, in row-major order. */
    static int tiles(ConvGeometry g) {
        int m = tile(g);
        return (g.outH() + m - 1) / m * tilesW(g);
    }

    /** Pixels in a row of {@link #padded}'s copy: the windows of every tile in a row. */
    private static int paddedW(ConvGeometry g) {
        return tile(g) * tilesW(g) + 2;
    }

    /**
     * Image {@code n} with the padding's zeros around it: {@code m tilesH + 2} rows of {@link #paddedW} pixels, the
     * window of tile {@code (ty, tx)} starting at row {@code m ty}, column {@code m tx} ({@code m} the
     * {@link #tile}). A tile past the output's edge reads zeros there, and its outputs past the edge are dropped.
     */
    static float[] padded(ConvGeometry g, float[] x, int xOff, int n) {
        int m = tile(g);
        int rows = m * ((g.outH() + m - 1) / m) + 2;
        float[] copy = Scratch.get().winogradImage(rows * paddedW(g) * g.channels());
        PaddedImage.copy(g, x, xOff, n, rows, paddedW(g), copy);
        return copy;
    }

    /**
     * The transformed input of tile {@code q}'s window in {@link #padded}'s copy, into {@code v} from {@code vi}, for
     * tiles {@code m} pixels wide ({@link #tile}), {@code tilesW} to a row ({@link #tilesW}: passed in, as they are
     * the same for every tile of a call); {@code buf} is {@link VectorWinograd4#buffer} for tiles of 4.
     */
    static void transformTile(ConvGeometry g, int m, int tilesW, float[] image, int q, float[] v, int vi,
                              float[] buf) {
        int rowStride = (m * tilesW + 2) * g.channels();
        int window = m * (q / tilesW) * rowStride + m * (q % tilesW) * g.channels();
        if (m == 4) {
            VectorWinograd4.transformInput(image, window, rowStride, g.channels(), v, vi, buf);
        } else {
            transformInput(image, window, rowStride, g.channels(), v, vi);
        }
    }

    /**
     * {@code V = B^T d B} of the 4x4 window at {@code di} (rows {@code rowStride} apart, pixels {@code c} apart), a
     * vector of channels at a time, into {@code v}: position k, channel p at {@code vi + k c + p}.
     */
    private static void transformInput(float[] image, int di, int rowStride, int c, float[] v, int vi) {
        int r1 = di + rowStride;
        int r2 = di + 2 * rowStride;
        int r3 = di + 3 * rowStride;
        for (int p = 0; p < c; p += L) {
            // B^T d, one column s at a time: rows d0 - d2, d1 + d2, d2 - d1, d1 - d3.
            FloatVector d0 = FloatVector.fromArray(S, image, di + p);
            FloatVector d1 = FloatVector.fromArray(S, image, r1 + p);
            FloatVector d2 = FloatVector.fromArray(S, image, r2 + p);
            FloatVector d3 = FloatVector.fromArray(S, image, r3 + p);
            FloatVector t00 = d0.sub(d2);
            FloatVector t10 = d1.add(d2);
            FloatVector t20 = d2.sub(d1);
            FloatVector t30 = d1.sub(d3);
            d0 = FloatVector.fromArray(S, image, di + c + p);
            d1 = FloatVector.fromArray(S, image, r1 + c + p);
            d2 = FloatVector.fromArray(S, image, r2 + c + p);
            d3 = FloatVector.fromArray(S, image, r3 + c + p);
            FloatVector t01 = d0.sub(d2);
            FloatVector t11 = d1.add(d2);
            FloatVector t21 = d2.sub(d1);
            FloatVector t31 = d1.sub(d3);
            d0 = FloatVector.fromArray(S, image, di + 2 * c + p);
            d1 = FloatVector.fromArray(S, image, r1 + 2 * c + p);
            d2 = FloatVector.fromArray(S, image, r2 + 2 * c + p);
            d3 = FloatVector.fromArray(S, image, r3 + 2 * c + p);
            FloatVector t02 = d0.sub(d2);
            FloatVector t12 = d1.add(d2);
            FloatVector t22 = d2.sub(d1);
            FloatVector t32 = d1.sub(d3);
            d0 = FloatVector.fromArray(S, image, di + 3 * c + p);
            d1 = FloatVector.fromArray(S, image, r1 + 3 * c + p);
            d2 = FloatVector.fromArray(S, image, r2 + 3 * c + p);
            d3 = FloatVector.fromArray(S, image, r3 + 3 * c + p);
            FloatVector t03 = d0.sub(d2);
            FloatVector t13 = d1.add(d2);
            FloatVector t23 = d2.sub(d1);
            FloatVector t33 = d1.sub(d3);
            // (B^T d) B, one row r at a time: columns t0 - t2, t1 + t2, t2 - t1, t1 - t3.
            int o = vi + p;
            t00.sub(t02).intoArray(v, o);
            t01.add(t02).intoArray(v, o + c);
            t02.sub(t01).intoArray(v, o + 2 * c);
            t01.sub(t03).intoArray(v, o + 3 * c);
            t10.sub(t12).intoArray(v, o + 4 * c);
            t11.add(t12).intoArray(v, o + 5 * c);
            t12.sub(t11).intoArray(v, o + 6 * c);
            t11.sub(t13).intoArray(v, o + 7 * c);
            t20.sub(t22).intoArray(v, o + 8 * c);
            t21.add(t22).intoArray(v, o + 9 * c);
            t22.sub(t21).intoArray(v, o + 10 * c);
            t21.sub(t23).intoArray(v, o + 11 * c);
            t30.sub(t32).intoArray(v, o + 12 * c);
            t31.add(t32).intoArray(v, o + 13 * c);
            t32.sub(t31).intoArray(v, o + 14 * c);
            t31.sub(t33).intoArray(v, o + 15 * c);
        }
    }

    /**
     * One vector of a tile's outputs, {@code A^T M A} of its 16 products (position k at {@code mi + k NR}), then
     * {@code + bias} and relu, stored at {@code yi} (the pixel to the right {@code pixel} floats on, the row below
     * {@code row} on) where inside the output.
     */
    private static void transformOutput(float[] m, int mi, float[] bias, int biasOff, boolean relu,
                                        float[] y, int yi, int pixel, int row, boolean down, boolean right) {
        // The positions' distance is a constant: the JIT checks the sixteen reads as one range.
        final int step = NR;
        FloatVector m00 = FloatVector.fromArray(S, m, mi);
        FloatVector m01 = FloatVector.fromArray(S, m, mi + step);
        FloatVector m02 = FloatVector.fromArray(S, m, mi + 2 * step);
        FloatVector m03 = FloatVector.fromArray(S, m, mi + 3 * step);
        FloatVector m10 = FloatVector.fromArray(S, m, mi + 4 * step);
        FloatVector m11 = FloatVector.fromArray(S, m, mi + 5 * step);
        FloatVector m12 = FloatVector.fromArray(S, m, mi + 6 * step);
        FloatVector m13 = FloatVector.fromArray(S, m, mi + 7 * step);
        FloatVector m20 = FloatVector.fromArray(S, m, mi + 8 * step);
        FloatVector m21 = FloatVector.fromArray(S, m, mi + 9 * step);
        FloatVector m22 = FloatVector.fromArray(S, m, mi + 10 * step);
        FloatVector m23 = FloatVector.fromArray(S, m, mi + 11 * step);
        FloatVector m30 = FloatVector.fromArray(S, m, mi + 12 * step);
        FloatVector m31 = FloatVector.fromArray(S, m, mi + 13 * step);
        FloatVector m32 = FloatVector.fromArray(S, m, mi + 14 * step);
        FloatVector m33 = FloatVector.fromArray(S, m, mi + 15 * step);
        // A^T M: rows m0 + m1 + m2 and m1 - m2 - m3, per column.
        FloatVector u00 = m00.add(m10).add(m20);
        FloatVector u01 = m01.add(m11).add(m21);
        FloatVector u02 = m02.add(m12).add(m22);
        FloatVector u03 = m03.add(m13).add(m23);
        FloatVector u10 = m10.sub(m20).sub(m30);
        FloatVector u11 = m11.sub(m21).sub(m31);
        FloatVector u12 = m12.sub(m22).sub(m32);
        FloatVector u13 = m13.sub(m23).sub(m33);
        // (A^T M) A: columns u0 + u1 + u2 and u1 - u2 - u3.
        FloatVector y00 = u00.add(u01).add(u02);
        FloatVector y01 = u01.sub(u02).sub(u03);
        FloatVector y10 = u10.add(u11).add(u12);
        FloatVector y11 = u11.sub(u12).sub(u13);
        if (bias != null) {
            FloatVector b = FloatVector.fromArray(S, bias, biasOff);
            y00 = y00.add(b);
            y01 = y01.add(b);
            y10 = y10.add(b);
            y11 = y11.add(b);
        }
        if (relu) {
            y00 = y00.max(0f);
            y01 = y01.max(0f);
            y10 = y10.max(0f);
            y11 = y11.max(0f);
        }
        y00.intoArray(y, yi);
        if (right) {
            y01.intoArray(y, yi + pixel);
        }
        if (down) {
            y10.intoArray(y, yi + row);
            if (right) {
                y11.intoArray(y, yi + row + pixel);
            }
        }
    }
}
