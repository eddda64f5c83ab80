package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The filter gradient of the convolutions {@link VectorWinogradConv} computes, by the same transform: with
 * {@code V = B^T d B} the transformed input tile and {@code D = A dy A^T} the transformed gradient of the tile's
 * 2x2 outputs, the gradient of the transformed filter is {@code dU = sum over tiles of V . D} (per position, an
 * outer product of the input and output channels), and the filter's gradient is {@code G^T dU G}. The sums over
 * tiles are 16 products of depth "tiles" (gemm's register kernel over a block of tiles,
 * {@link VectorGemm#kernelColumns}), 2.25x fewer multiply-adds than the direct sum over pixels and taps. Where the
 * forward pass takes 4x4 tiles ({@link VectorWinogradConv#tile}) the same loops run with {@link VectorWinograd4}'s
 * transforms: 36 products, 4x fewer multiply-adds than the direct sum.
 *
 * <p>The tiles of the slot's images are taken in order, a block at a time (a block may span several small images),
 * each block's products added to the sums so far, so the result depends only on the images
 * {@link VectorConv#backwardFilter} gives a slot, not on the threads.
 */
final class VectorWinogradFilterGradient {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final int NR = VectorGemm.NR;
    private static final int MR = VectorGemm.MR;
    /**
     * Floats of transformed inputs and gradients held for one block of tiles (512 KiB, in L2 while read). Each
     * block's products read and write all of dU, so deeper blocks pay: against 256 KiB, one thread, 64 channels in
     * and out, the filter gradient measured 1.05-1.2x faster at 7x7 and 14x14 (1 MiB was slower again).
     */
    private static final int BLOCK_FLOATS = 1 << 17;

    private VectorWinogradFilterGradient() {
    }

    /** Whether this kernel computes the filter gradient of {@code g}: where the forward pass is Winograd's. */
    static boolean applies(ConvGeometry g) {
        return VectorWinogradConv.applies(g);
    }

    /** {@code dw = sum over images [n0, n1)} of the filter gradient, on the calling thread. */
    static void filterGradient(ConvGeometry g, int n0, int n1, float[] x, int xOff, float[] dy, int dyOff,
                               float[] dw, int dwOff) {
        int c = g.channels();
        int oc = g.outChannels();
        int panels = oc / NR;
        int side = VectorWinogradConv.tile(g);
        int positions = VectorWinogradConv.positions(side);
        int tilesW = VectorWinogradConv.tilesW(g);
        int tiles = VectorWinogradConv.tiles(g);
        // Tiles are numbered across the images, so that a block may span several small ones (a 7x7 output has 16
        // tiles an image: its products were only 16 deep). Blocks of about equal size: a short last block would pay
        // a whole pass over dU for a few tiles.
        int total = (n1 - n0) * tiles;
        int most = Math.max(1, BLOCK_FLOATS / (positions * (c + oc)));
        int block = Math.max(1, VectorGemm.ceilDiv(total, Math.max(1, VectorGemm.ceilDiv(total, most))));
        // One position's gradients to the next: a cache line more than a whole number of pages would put the 16
        // lines a tile writes in one L1 set.
        int step = block * NR + L;
        Scratch scratch = Scratch.get();
        // MR floats past the last tile: the last group of input channels reads (and drops) that many.
        float[] v = scratch.winogradInput(block * positions * c + MR);
        float[] d = scratch.winogradProducts(positions * panels * step);
        float[] du = scratch.winogradSums(positions * c * oc);
        float[] tile = scratch.tile(MR * NR);
        float[] buf = side == 4 ? VectorWinograd4.buffer() : null;
        int imageOut = g.outH() * g.outW() * oc;
        boolean add = false;
        float[] image = null;
        int loaded = -1;
        for (int q0 = 0; q0 < total; q0 += block) {
            int count = Math.min(block, total - q0);
            for (int t = 0; t < count; t++) {
                int n = n0 + (q0 + t) / tiles;
                int q = (q0 + t) % tiles;
                if (n != loaded) {
                    image = VectorWinogradConv.padded(g, x, xOff, n);
                    loaded = n;
                }
                int oy = side * (q / tilesW);
                int ox = side * (q % tilesW);
                VectorWinogradConv.transformTile(g, side, tilesW, image, q, v, t * positions * c, buf);
                int yi = dyOff + n * imageOut + (oy * g.outW() + ox) * oc;
                if (side == 4) {
                    for (int j = 0; j < oc; j += L) {
                        VectorWinograd4.transformGradient(dy, yi + j, oc, g.outW() * oc, Math.min(4, g.outH() - oy),
                                Math.min(4, g.outW() - ox), d, t * NR + (j / NR) * step + j % NR, panels * step,
                                buf);
                    }
                } else {
                    transformGradient(g, dy, yi, oy + 1 < g.outH(), ox + 1 < g.outW(), d, t * NR, step, panels);
                }
            }
            for (int k = 0; k < positions; k++) {
                for (int jp = 0; jp < panels; jp++) {
                    int bi = (k * panels + jp) * step;
                    for (int i0 = 0; i0 < c; i0 += MR) {
                        int ci = (k * c + i0) * oc + jp * NR;
                        if (i0 + MR <= c) {
                            VectorGemm.kernelColumns(count, v, k * c + i0, positions * c, d, bi, du, ci, oc, add);
                        } else {
                            VectorGemm.kernelColumns(count, v, k * c + i0, positions * c, d, bi, tile, 0, NR, false);
                            VectorGemm.mergeTile(tile, c - i0, NR, du, ci, oc, add);
                        }
                    }
                }
            }
            add = true;
        }
        if (!add) {
            Arrays.fill(dw, dwOff, dwOff + 9 * c * oc, 0f);
            return;
        }
        if (side == 4) {
            for (int p = 0; p < c; p++) {
                for (int j = 0; j < oc; j += L) {
                    VectorWinograd4.transformBack(du, p * oc + j, dw, dwOff + p * oc + j, c * oc, buf);
                }
            }
        } else {
            transformBack(du, c, oc, dw, dwOff);
        }
    }

    /**
     * {@code D = A dy A^T} of one tile's 2x2 gradient at {@code yi} (zero past the output's edge), a vector of
     * output channels at a time, into {@code d}: position k, panel jp, channel j at
     * {@code di + (k panels + jp) step + j % NR}.
     */
    private static void transformGradient(ConvGeometry g, float[] dy, int yi, boolean down, boolean right,
                                          float[] d, int di, int step, int panels) {
        int oc = g.outChannels();
        int row = g.outW() * oc;
        FloatVector zero = FloatVector.zero(S);
        for (int j = 0; j < oc; j += L) {
            FloatVector y00 = FloatVector.fromArray(S, dy, yi + j);
            FloatVector y01 = right ? FloatVector.fromArray(S, dy, yi + oc + j) : zero;
            FloatVector y10 = down ? FloatVector.fromArray(S, dy, yi + row + j) : zero;
            FloatVector y11 = down && right ? FloatVector.fromArray(S, dy, yi + row + oc + j) : zero;
            // A dy: rows y0, y0 + y1, y0 - y1, -y1 (A = [1 0; 1 1; 1 -1; 0 -1]), then the same along the columns.
            FloatVector r10 = y00.add(y10);
            FloatVector r11 = y01.add(y11);
            FloatVector r20 = y00.sub(y10);
            FloatVector r21 = y01.sub(y11);
            FloatVector r30 = y10.neg();
            FloatVector r31 = y11.neg();
            int o = di + (j / NR) * step + j % NR;
            int k = panels * step;
            store(y00, y01, d, o, k);
            store(r10, r11, d, o + 4 * k, k);
            store(r20, r21, d, o + 8 * k, k);
            store(r30, r31, d, o + 12 * k, k);
        }
    }

    /** One row of {@code D}: {@code (a, b) A^T} = {@code a, a + b, a - b, -b} at positions {@code o + s k}. */
    private static void store(FloatVector a, FloatVector b, float[] d, int o, int k) {
        a.intoArray(d, o);
        a.add(b).intoArray(d, o + k);
        a.sub(b).intoArray(d, o + 2 * k);
        b.neg().intoArray(d, o + 3 * k);
    }

    /** {@code dw = G^T dU G} for each pair of channels, from dU's positions k at {@code (k c + p) oc + j}. */
    private static void transformBack(float[] du, int c, int oc, float[] dw, int dwOff) {
        int step = c * oc;
        for (int p = 0; p < c; p++) {
            for (int j = 0; j < oc; j++) {
                int u = p * oc + j;
                int o = dwOff + p * oc + j;
                for (int i = 0; i < 3; i++) {
                    // Row i of G^T dU (row()), then (G^T dU) G: s0 + (s1 + s2) / 2, (s1 - s2) / 2,
                    // (s1 + s2) / 2 + s3.
                    float s0 = row(du, u, step, i, 0);
                    float s1 = row(du, u, step, i, 1);
                    float s2 = row(du, u, step, i, 2);
                    float s3 = row(du, u, step, i, 3);
                    dw[o + (3 * i) * step] = s0 + 0.5f * (s1 + s2);
                    dw[o + (3 * i + 1) * step] = 0.5f * (s1 - s2);
                    dw[o + (3 * i + 2) * step] = 0.5f * (s1 + s2) + s3;
                }
            }
        }
    }

    /**
     * Row i of {@code G^T dU}, column s, for the channel pair at {@code u}: {@code u0 + (u1 + u2) / 2},
     * {@code (u1 - u2) / 2} or {@code (u1 + u2) / 2 + u3} of column s's four positions.
     */
    private static float row(float[] du, int u, int step, int i, int s) {
        float u0 = du[u + s * step];
        float u1 = du[u + (4 + s) * step];
        float u2 = du[u + (8 + s) * step];
        float u3 = du[u + (12 + s) * step];
        return switch (i) {
            case 0 -> u0 + 0.5f * (u1 + u2);
            case 1 -> 0.5f * (u1 - u2);
            default -> 0.5f * (u1 + u2) + u3;
        };
    }
}
