package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The transforms of Winograd's F(4x4, 3x3), for {@link VectorWinogradConv} and {@link VectorWinogradFilterGradient}
 * where their tiles are 4x4 outputs: 36 products per tile, input and output channel where F(2x2, 3x3) takes 64 for
 * the same 16 outputs (16 per 2x2 tile) and the direct convolution 144, so 1.78x fewer multiply-adds than F(2x2) and
 * 4x fewer than direct. With the interpolation points 0, 1, -1, 2, -2 and infinity (Lavin and Gray):
 * <pre>
 *   B^T = | 4  0 -5  0  1  0 |    G = |  1/4     0     0  |    A^T = | 1  1  1  1  1  0 |
 *         | 0 -4 -4  1  1  0 |        | -1/6  -1/6  -1/6  |          | 0  1 -1  2 -2  0 |
 *         | 0  4 -4 -1  1  0 |        | -1/6   1/6  -1/6  |          | 0  1  1  4  4  0 |
 *         | 0 -2 -1  2  1  0 |        |  1/24  1/12  1/6  |          | 0  1 -1  8 -8  1 |
 *         | 0  2 -1 -2  1  0 |        |  1/24 -1/12  1/6  |
 *         | 0  4  0 -5  0  1 |        |  0     0     1    |
 * </pre>
 * A tile's outputs are {@code A^T [(G g G^T) . (B^T d B)] A} for its 6x6 input window {@code d}; the filter gradient
 * is {@code G^T [sum over tiles of (B^T d B) . (A dy A^T)] G}. The coefficients up to 8 (and 1/6, 1/24, not exact
 * in binary) round more than F(2x2, 3x3)'s 1 and 1/2: a float32 result differs from the exact sum by a few times what
 * the direct kernels' does, which is what other float32 libraries accept for this transform.
 *
 * <p>Each two-dimensional transform is two passes of the one-dimensional one, first down the columns into a small
 * buffer (L1), then along its rows: one method per matrix instead of 36 named vectors per transform, for a few
 * percent of the loads. Positions are numbered {@code k = 6 r + s}, row r and column s of the 6x6 transform.
 */
final class VectorWinograd4 {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Output pixels along a tile's side. */
    static final int TILE = 4;
    /** Pixels along the side of a tile's input window. */
    static final int WINDOW = TILE + 2;
    /** Positions of the 6x6 transform. */
    static final int POSITIONS = WINDOW * WINDOW;
    /** Floats of the buffer each transform needs ({@link #buffer}). */
    static final int BUFFER_FLOATS = (POSITIONS + 4 * TILE) * L;

    private VectorWinograd4() {
    }

    /** A buffer for this thread's transforms ({@link #BUFFER_FLOATS}). */
    static float[] buffer() {
        return Scratch.get().winogradTransform(BUFFER_FLOATS);
    }

    /**
     * {@code V = B^T d B} of the 6x6 window at {@code di} (rows {@code rowStride} apart, pixels {@code c} apart), a
     * vector of channels at a time, into {@code v}: position k, channel p at {@code vi + k c + p}.
     */
    static void transformInput(float[] image, int di, int rowStride, int c, float[] v, int vi, float[] buf) {
        for (int p = 0; p < c; p += L) {
            for (int s = 0; s < WINDOW; s++) {
                inputColumn(image, di + s * c + p, rowStride, buf, s * L, WINDOW * L);
            }
            for (int r = 0; r < WINDOW; r++) {
                inputColumn(buf, r * WINDOW * L, L, v, vi + r * WINDOW * c + p, c);
            }
        }
    }

    /** {@code B^T} times the six vectors {@code step} apart from {@code i}, to {@code o}, {@code oStep} apart. */
    private static void inputColumn(float[] a, int i, int step, float[] out, int o, int oStep) {
        FloatVector d0 = FloatVector.fromArray(S, a, i);
        FloatVector d1 = FloatVector.fromArray(S, a, i + step);
        FloatVector d2 = FloatVector.fromArray(S, a, i + 2 * step);
        FloatVector d3 = FloatVector.fromArray(S, a, i + 3 * step);
        FloatVector d4 = FloatVector.fromArray(S, a, i + 4 * step);
        FloatVector d5 = FloatVector.fromArray(S, a, i + 5 * step);
        FloatVector e = d4.sub(d2);
        FloatVector f = d3.sub(d1).mul(2f);
        d0.mul(4f).sub(d2.mul(5f)).add(d4).intoArray(out, o);
        d3.add(d4).sub(d1.add(d2).mul(4f)).intoArray(out, o + oStep);
        d4.sub(d3).add(d1.sub(d2).mul(4f)).intoArray(out, o + 2 * oStep);
        e.add(f).intoArray(out, o + 3 * oStep);
        e.sub(f).intoArray(out, o + 4 * oStep);
        d1.mul(4f).sub(d3.mul(5f)).add(d5).intoArray(out, o + 5 * oStep);
    }

    /**
     * One vector of a tile's outputs, {@code A^T M A} of its 36 products (position k at {@code mi + k step}), then
     * {@code + bias} and relu, stored at {@code yi} for the {@code rows x cols} outputs inside the image (pixels
     * {@code pixel} floats apart, rows {@code row} apart).
     */
    static void transformOutput(float[] m, int mi, int step, float[] bias, int biasOff, boolean relu, float[] y,
                                int yi, int pixel, int row, int rows, int cols, float[] buf) {
        for (int s = 0; s < WINDOW; s++) {
            outputColumn(m, mi + s * step, WINDOW * step, buf, s * L, WINDOW * L);
        }
        int out = POSITIONS * L;
        for (int r = 0; r < rows; r++) {
            outputColumn(buf, r * WINDOW * L, L, buf, out, L);
            for (int col = 0; col < cols; col++) {
                FloatVector o = FloatVector.fromArray(S, buf, out + col * L);
                if (bias != null) {
                    o = o.add(FloatVector.fromArray(S, bias, biasOff));
                }
                if (relu) {
                    o = o.max(0f);
                }
                o.intoArray(y, yi + r * row + col * pixel);
            }
        }
    }

    /** {@code A^T} times the six vectors {@code step} apart from {@code i}, to {@code o}, {@code oStep} apart. */
    private static void outputColumn(float[] a, int i, int step, float[] out, int o, int oStep) {
        FloatVector m0 = FloatVector.fromArray(S, a, i);
        FloatVector m1 = FloatVector.fromArray(S, a, i + step);
        FloatVector m2 = FloatVector.fromArray(S, a, i + 2 * step);
        FloatVector m3 = FloatVector.fromArray(S, a, i + 3 * step);
        FloatVector m4 = FloatVector.fromArray(S, a, i + 4 * step);
        FloatVector m5 = FloatVector.fromArray(S, a, i + 5 * step);
        FloatVector sum12 = m1.add(m2);
        FloatVector diff12 = m1.sub(m2);
        FloatVector sum34 = m3.add(m4);
        FloatVector diff34 = m3.sub(m4);
        m0.add(sum12).add(sum34).intoArray(out, o);
        diff12.add(diff34.mul(2f)).intoArray(out, o + oStep);
        sum12.add(sum34.mul(4f)).intoArray(out, o + 2 * oStep);
        diff12.add(diff34.mul(8f)).add(m5).intoArray(out, o + 3 * oStep);
    }

    /**
     * {@code D = A dy A^T} of one tile's gradient at {@code yi} (its {@code rows x cols} pixels inside the image,
     * zero past the edge; pixels {@code pixel} apart, rows {@code row} apart), one vector of output channels, into
     * {@code d}: position k at {@code o + k step}.
     */
    static void transformGradient(float[] dy, int yi, int pixel, int row, int rows, int cols, float[] d, int o,
                                  int step, float[] buf) {
        // The tile's 4x4 gradient, zero past the edge, then A down its columns and along its rows.
        int tile = POSITIONS * L;
        FloatVector zero = FloatVector.zero(S);
        for (int r = 0; r < TILE; r++) {
            for (int s = 0; s < TILE; s++) {
                FloatVector g = r < rows && s < cols ? FloatVector.fromArray(S, dy, yi + r * row + s * pixel) : zero;
                g.intoArray(buf, tile + (r * TILE + s) * L);
            }
        }
        for (int s = 0; s < TILE; s++) {
            gradientColumn(buf, tile + s * L, TILE * L, buf, s * L, TILE * L);
        }
        for (int r = 0; r < WINDOW; r++) {
            gradientColumn(buf, r * TILE * L, L, d, o + r * WINDOW * step, step);
        }
    }

    /** {@code A} times the four vectors {@code step} apart from {@code i}, to {@code o}, {@code oStep} apart. */
    private static void gradientColumn(float[] a, int i, int step, float[] out, int o, int oStep) {
        FloatVector y0 = FloatVector.fromArray(S, a, i);
        FloatVector y1 = FloatVector.fromArray(S, a, i + step);
        FloatVector y2 = FloatVector.fromArray(S, a, i + 2 * step);
        FloatVector y3 = FloatVector.fromArray(S, a, i + 3 * step);
        FloatVector even = y0.add(y2);
        FloatVector odd = y1.add(y3);
        FloatVector even4 = y2.mul(4f).add(y0);
        FloatVector odd4 = y3.mul(4f).add(y1).mul(2f);
        y0.intoArray(out, o);
        even.add(odd).intoArray(out, o + oStep);
        even.sub(odd).intoArray(out, o + 2 * oStep);
        even4.add(odd4).intoArray(out, o + 3 * oStep);
        even4.sub(odd4).intoArray(out, o + 4 * oStep);
        y3.intoArray(out, o + 5 * oStep);
    }

    /**
     * The transformed filter {@code U = G g G^T} of input channel p and one vector of output channels: tap
     * {@code (i, j)}'s vector at {@code w[tap0 + (3 i + j) tapStep]}, position k's to {@code u[base + k step]}.
     * {@code buf} holds at least 18 vectors.
     */
    static void transformFilter(float[] w, int tap0, int tapStep, float[] u, int base, int step, float[] buf) {
        // G g (6 x 3 vectors) into buf, one column j of taps at a time, then G along each of its rows.
        for (int j = 0; j < 3; j++) {
            filterColumn(w, tap0 + j * tapStep, 3 * tapStep, buf, j * L, 3 * L);
        }
        for (int r = 0; r < WINDOW; r++) {
            filterColumn(buf, 3 * r * L, L, u, base + r * WINDOW * step, step);
        }
    }

    /** {@code G} times the three vectors {@code step} apart from {@code i}, to {@code o}, {@code oStep} apart. */
    private static void filterColumn(float[] a, int i, int step, float[] out, int o, int oStep) {
        FloatVector g0 = FloatVector.fromArray(S, a, i);
        FloatVector g1 = FloatVector.fromArray(S, a, i + step);
        FloatVector g2 = FloatVector.fromArray(S, a, i + 2 * step);
        FloatVector outer = g0.add(g2);
        FloatVector near = g0.mul(1f / 24).add(g2.mul(1f / 6));
        FloatVector middle = g1.mul(1f / 12);
        g0.mul(0.25f).intoArray(out, o);
        outer.add(g1).mul(-1f / 6).intoArray(out, o + oStep);
        outer.sub(g1).mul(-1f / 6).intoArray(out, o + 2 * oStep);
        near.add(middle).intoArray(out, o + 3 * oStep);
        near.sub(middle).intoArray(out, o + 4 * oStep);
        g2.intoArray(out, o + 5 * oStep);
    }

    /**
     * {@code dw = G^T dU G} of input channel p and one vector of output channels: dU's position k at
     * {@code du[u + k step]}, tap {@code (i, j)} to {@code dw[o + (3 i + j) step]}. {@code buf} holds at least 18
     * vectors.
     */
    static void transformBack(float[] du, int u, float[] dw, int o, int step, float[] buf) {
        // G^T down each of the six columns (3 x 6 vectors into buf), then along the three rows.
        for (int s = 0; s < WINDOW; s++) {
            backColumn(du, u + s * step, WINDOW * step, buf, s * L, WINDOW * L);
        }
        for (int i = 0; i < 3; i++) {
            backColumn(buf, i * WINDOW * L, L, dw, o + 3 * i * step, step);
        }
    }

    /** {@code G^T} times the six vectors {@code step} apart from {@code i}, to {@code o}, {@code oStep} apart. */
    private static void backColumn(float[] a, int i, int step, float[] out, int o, int oStep) {
        FloatVector u0 = FloatVector.fromArray(S, a, i);
        FloatVector u1 = FloatVector.fromArray(S, a, i + step);
        FloatVector u2 = FloatVector.fromArray(S, a, i + 2 * step);
        FloatVector u3 = FloatVector.fromArray(S, a, i + 3 * step);
        FloatVector u4 = FloatVector.fromArray(S, a, i + 4 * step);
        FloatVector u5 = FloatVector.fromArray(S, a, i + 5 * step);
        FloatVector sum12 = u1.add(u2);
        FloatVector sum34 = u3.add(u4);
        u0.mul(0.25f).sub(sum12.mul(1f / 6)).add(sum34.mul(1f / 24)).intoArray(out, o);
        u2.sub(u1).mul(1f / 6).add(u3.sub(u4).mul(1f / 12)).intoArray(out, o + oStep);
        sum34.sub(sum12).mul(1f / 6).add(u5).intoArray(out, o + 2 * oStep);
    }
}
