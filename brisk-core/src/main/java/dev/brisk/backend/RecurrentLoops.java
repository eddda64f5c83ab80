package dev.brisk.backend;

import dev.brisk.ops.RecurrentCell;
import dev.brisk.ops.RecurrentGeometry;

/**
 * The whole-sequence recurrent kernels composed over a backend's gemm (see {@link Kernels#recurrentForward}): all
 * products go through {@link Kernels#gemm}, so they are the backend's (vectorized and split over threads for the
 * Vector API backend); the per-step passes over the gates are scalar loops here. The functions use
 * {@link StrictMath}, so a seeded run gives the same bits whether or not the JIT has compiled them. Nothing is
 * allocated: every buffer is a window of the kept state or the scratch ({@link RecurrentGeometry}).
 */
final class RecurrentLoops {
    private RecurrentLoops() {
    }

    static void forward(Kernels k, RecurrentGeometry g, float[] x, int xOff, float[] w, int wOff, float[] u,
                        int uOff, float[] bias, int biasOff, float[] st, int stOff, float[] y, int yOff,
                        boolean returnSequences) {
        int b = g.batch();
        int t = g.steps();
        int in = g.inputs();
        int n = g.units();
        int gw = g.gateWidth();
        int xs = stOff + g.inputsOffset();
        int gates = stOff + g.gatesOffset();
        int hidden = stOff + g.hiddenOffset();
        int extra = stOff + g.extraOffset();
        for (int s = 0; s < t; s++) {
            k.copy2d(x, xOff + g.time(s) * in, t * in, st, xs + s * b * in, in, b, in);
        }
        k.gemmBiasActivation(false, false, g.rows(), gw, in, st, xs, in, w, wOff, gw, bias, biasOff, null, 0f,
                st, gates, gw);
        k.fill(st, hidden, b * n, 0f);
        if (g.cell() == RecurrentCell.LSTM) {
            k.fill(st, extra, b * n, 0f);
        }
        for (int s = 0; s < t; s++) {
            int hPrev = hidden + s * b * n;
            int hNext = hPrev + b * n;
            int gs = gates + s * b * gw;
            switch (g.cell()) {
                case SIMPLE -> {
                    k.gemm(false, false, b, gw, n, st, hPrev, n, u, uOff, gw, st, gs, gw, true);
                    simpleForward(st, gs, hNext, b * n);
                }
                case LSTM -> {
                    k.gemm(false, false, b, gw, n, st, hPrev, n, u, uOff, gw, st, gs, gw, true);
                    lstmForward(st, gs, extra + s * b * n, hNext, b, n);
                }
                case GRU -> {
                    int product = stOff + g.recurrentProductOffset();
                    k.gemm(false, false, b, gw, n, st, hPrev, n, u, uOff, gw, st, product, gw, false);
                    gruForward(st, gs, product, bias, biasOff + gw, extra + s * b * n, hPrev, b, n);
                }
            }
        }
        if (returnSequences) {
            for (int s = 0; s < t; s++) {
                k.copy2d(st, hidden + (s + 1) * b * n, n, y, yOff + s * n, t * n, b, n);
            }
        } else {
            k.copy(st, hidden + t * b * n, y, yOff, b * n);
        }
    }

    /** {@code h = tanh(pre)} in place in the gates, copied to the next hidden state. */
    private static void simpleForward(float[] st, int gs, int hNext, int count) {
        for (int i = 0; i < count; i++) {
            float h = (float) StrictMath.tanh(st[gs + i]);
            st[gs + i] = h;
            st[hNext + i] = h;
        }
    }

    /** Activates the gates {@code i, f, c, o} in place; {@code c' = f c + i g}, {@code h = o tanh(c')}. */
    private static void lstmForward(float[] st, int gs, int cPrev, int hNext, int b, int n) {
        int gw = 4 * n;
        int cNext = cPrev + b * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            for (int j = 0; j < n; j++) {
                float i = sigmoid(st[row + j]);
                float f = sigmoid(st[row + n + j]);
                float c = (float) StrictMath.tanh(st[row + 2 * n + j]);
                float o = sigmoid(st[row + 3 * n + j]);
                st[row + j] = i;
                st[row + n + j] = f;
                st[row + 2 * n + j] = c;
                st[row + 3 * n + j] = o;
                int at = r * n + j;
                float cell = f * st[cPrev + at] + i * c;
                st[cNext + at] = cell;
                st[hNext + at] = o * (float) StrictMath.tanh(cell);
            }
        }
    }

    /**
     * GRU with the reset gate after the recurrent product: {@code z, r} from the input part plus the recurrent part
     * and its bias; the candidate from the input part plus {@code r} times the recurrent part, which is kept.
     */
    private static void gruForward(float[] st, int gs, int product, float[] bias, int recBias, int candidate,
                                   int hPrev, int b, int n) {
        int gw = 3 * n;
        int hNext = hPrev + b * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            int prow = product + r * gw;
            for (int j = 0; j < n; j++) {
                float z = sigmoid(st[row + j] + st[prow + j] + bias[recBias + j]);
                float reset = sigmoid(st[row + n + j] + st[prow + n + j] + bias[recBias + n + j]);
                float part = st[prow + 2 * n + j] + bias[recBias + 2 * n + j];
                float hh = (float) StrictMath.tanh(st[row + 2 * n + j] + reset * part);
                st[row + j] = z;
                st[row + n + j] = reset;
                st[row + 2 * n + j] = hh;
                int at = r * n + j;
                st[candidate + at] = part;
                st[hNext + at] = z * st[hPrev + at] + (1f - z) * hh;
            }
        }
    }

    private static float sigmoid(float v) {
        return (float) (1.0 / (1.0 + StrictMath.exp(-v)));
    }

    static void backward(Kernels k, RecurrentGeometry g, float[] dy, int dyOff, boolean returnSequences,
                         float[] w, int wOff, float[] u, int uOff, float[] st, int stOff, float[] sc, int scOff,
                         float[] out, int outOff, boolean inputGradient) {
        int b = g.batch();
        int t = g.steps();
        int in = g.inputs();
        int n = g.units();
        int gw = g.gateWidth();
        int gates = stOff + g.gatesOffset();
        int hidden = stOff + g.hiddenOffset();
        int extra = stOff + g.extraOffset();
        int dGates = scOff + g.gateGradientOffset();
        int dRec = scOff + g.recurrentGradientOffset();
        int dh = scOff + g.hiddenGradientOffset();
        int dc = scOff + g.cellGradientOffset();
        int ones = scOff + g.onesOffset();
        k.fill(sc, dh, b * n, 0f);
        k.fill(sc, dc, b * n, 0f);
        k.fill(sc, ones, g.rows(), 1f);
        for (int s = t - 1; s >= 0; s--) {
            // dh += the upstream gradient of this step's output
            if (returnSequences) {
                addRows(dy, dyOff + s * n, t * n, sc, dh, b, n);
            } else if (s == t - 1) {
                addRows(dy, dyOff, n, sc, dh, b, n);
            }
            int gs = gates + s * b * gw;
            int dgs = dGates + s * b * gw;
            switch (g.cell()) {
                case SIMPLE -> simpleBackward(st, gs, sc, dh, dgs, b * n);
                case LSTM -> lstmBackward(st, gs, extra + s * b * n, sc, dh, dc, dgs, b, n);
                case GRU -> gruBackward(st, gs, extra + s * b * n, hidden + s * b * n, sc, dh, dgs,
                        dRec + s * b * gw, b, n);
            }
            if (s > 0) {
                // dh_prev (+)= dRec_s U^T; GRU's dh already holds the direct part z dh.
                k.gemm(false, true, b, n, gw, sc, dRec + s * b * gw, gw, u, uOff, gw, sc, dh, n,
                        g.cell() == RecurrentCell.GRU);
            }
        }
        int o = outOff;
        if (inputGradient) {
            int dxs = scOff + g.inputGradientOffset();
            k.gemm(false, true, g.rows(), in, gw, sc, dGates, gw, w, wOff, gw, sc, dxs, in, false);
            for (int s = 0; s < t; s++) {
                k.copy2d(sc, dxs + s * b * in, in, out, o + g.time(s) * in, t * in, b, in);
            }
            o += b * t * in;
        }
        int xs = stOff + g.inputsOffset();
        k.gemm(true, false, in, gw, g.rows(), st, xs, in, sc, dGates, gw, out, o, gw, false);
        o += in * gw;
        k.gemm(true, false, n, gw, g.rows(), st, hidden, n, sc, dRec, gw, out, o, gw, false);
        o += n * gw;
        k.gemm(false, false, 1, gw, g.rows(), sc, ones, g.rows(), sc, dGates, gw, out, o, gw, false);
        if (g.cell() == RecurrentCell.GRU) {
            k.gemm(false, false, 1, gw, g.rows(), sc, ones, g.rows(), sc, dRec, gw, out, o + gw, gw, false);
        }
    }

    /** {@code dst[r, j] += src[r, j]} for a {@code rows x cols} block with source row stride {@code srcStride}. */
    private static void addRows(float[] src, int srcOff, int srcStride, float[] dst, int dstOff, int rows, int cols) {
        for (int r = 0; r < rows; r++) {
            int from = srcOff + r * srcStride;
            int to = dstOff + r * cols;
            for (int j = 0; j < cols; j++) {
                dst[to + j] += src[from + j];
            }
        }
    }

    private static void simpleBackward(float[] st, int gs, float[] sc, int dh, int dgs, int count) {
        for (int i = 0; i < count; i++) {
            float h = st[gs + i];
            sc[dgs + i] = sc[dh + i] * (1f - h * h);
        }
    }

    /**
     * The LSTM gates' pre-activation gradients of one step from {@code dh} and the running {@code dc}, which becomes
     * the previous step's {@code dc}.
     */
    private static void lstmBackward(float[] st, int gs, int cPrev, float[] sc, int dh, int dc, int dgs, int b,
                                     int n) {
        int gw = 4 * n;
        int cNext = cPrev + b * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            int drow = dgs + r * gw;
            for (int j = 0; j < n; j++) {
                int at = r * n + j;
                float i = st[row + j];
                float f = st[row + n + j];
                float c = st[row + 2 * n + j];
                float o = st[row + 3 * n + j];
                float tc = (float) StrictMath.tanh(st[cNext + at]);
                float dhv = sc[dh + at];
                float dcv = sc[dc + at] + dhv * o * (1f - tc * tc);
                sc[drow + j] = dcv * c * i * (1f - i);
                sc[drow + n + j] = dcv * st[cPrev + at] * f * (1f - f);
                sc[drow + 2 * n + j] = dcv * i * (1f - c * c);
                sc[drow + 3 * n + j] = dhv * tc * o * (1f - o);
                sc[dc + at] = dcv * f;
            }
        }
    }

    /**
     * The GRU gates' pre-activation gradients of one step: those of the input part into {@code dgs}, those of the
     * recurrent product into {@code drs} (the candidate's scaled by {@code r}), and {@code dh} replaced by its
     * direct part {@code z dh}, to which the caller adds {@code drs U^T}.
     */
    private static void gruBackward(float[] st, int gs, int candidate, int hPrev, float[] sc, int dh, int dgs,
                                    int drs, int b, int n) {
        int gw = 3 * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            int drow = dgs + r * gw;
            int rrow = drs + r * gw;
            for (int j = 0; j < n; j++) {
                int at = r * n + j;
                float z = st[row + j];
                float reset = st[row + n + j];
                float hh = st[row + 2 * n + j];
                float part = st[candidate + at];
                float dhv = sc[dh + at];
                float dz = dhv * (st[hPrev + at] - hh) * z * (1f - z);
                float dCand = dhv * (1f - z) * (1f - hh * hh);
                float dReset = dCand * part * reset * (1f - reset);
                sc[drow + j] = dz;
                sc[drow + n + j] = dReset;
                sc[drow + 2 * n + j] = dCand;
                sc[rrow + j] = dz;
                sc[rrow + n + j] = dReset;
                sc[rrow + 2 * n + j] = dCand * reset;
                sc[dh + at] = dhv * z;
            }
        }
    }
}
