package dev.brisk.backend;

import dev.brisk.ops.RecurrentCell;
import dev.brisk.ops.RecurrentGeometry;

/**
 * The whole-sequence recurrent kernels composed over a backend's gemm (see {@link Kernels#recurrentForward}): all
 * products go through {@link Kernels#gemm}, so they are the backend's (vectorized and split over threads for the
 * Vector API backend), and the per-step passes over the gates through a {@link RecurrentGates} (scalar by default,
 * vectorized by the Vector API backend). Nothing is allocated: every buffer is a window of the kept state or the
 * scratch ({@link RecurrentGeometry}).
 */
public final class RecurrentLoops {
    private RecurrentLoops() {
    }

    /**
     * {@link Kernels#recurrentForward} with the gate passes of {@code passes}.
     *
     * @param k the backend, for its products and copies
     * @param passes the per-step passes over the gates
     * @param g the geometry
     * @param x the input
     * @param xOff index of its first element
     * @param w the kernel
     * @param wOff index of its first element
     * @param u the recurrent kernel
     * @param uOff index of its first element
     * @param bias the bias
     * @param biasOff index of its first element
     * @param st receives the kept state
     * @param stOff index of its first element
     * @param y receives the output
     * @param yOff index of its first element
     * @param returnSequences whether every step's state is output
     */
    public static void forward(Kernels k, RecurrentGates passes, RecurrentGeometry g, float[] x, int xOff, float[] w, int wOff, float[] u,
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
        // x W + b for all steps: the bias copied to every row, then the product added (gemm's bias epilogue takes a
        // masked path per row where the gate width is not whole vectors).
        k.copy2d(bias, biasOff, 0, st, gates, gw, g.rows(), gw);
        k.gemm(false, false, g.rows(), gw, in, st, xs, in, w, wOff, gw, st, gates, gw, true);
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
                    passes.simpleForward(st, gs, hNext, b, n);
                }
                case LSTM -> {
                    k.gemm(false, false, b, gw, n, st, hPrev, n, u, uOff, gw, st, gs, gw, true);
                    passes.lstmForward(st, gs, extra + s * b * n, hNext, b, n);
                }
                case GRU -> {
                    int product = stOff + g.recurrentProductOffset();
                    k.gemm(false, false, b, gw, n, st, hPrev, n, u, uOff, gw, st, product, gw, false);
                    passes.gruForward(st, gs, product, bias, biasOff + gw, extra + s * b * n, hPrev, b, n);
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

    /**
     * {@link Kernels#recurrentBackward} with the gate passes of {@code passes}.
     *
     * @param k the backend, for its products and copies
     * @param passes the per-step passes over the gates
     * @param g the geometry
     * @param dy the upstream gradient
     * @param dyOff index of its first element
     * @param returnSequences whether the forward output was every step's state
     * @param w the kernel
     * @param wOff index of its first element
     * @param u the recurrent kernel
     * @param uOff index of its first element
     * @param st the kept state
     * @param stOff index of its first element
     * @param sc the scratch
     * @param scOff index of its first element
     * @param out receives the packed gradients
     * @param outOff index of its first element
     * @param inputGradient whether the input's gradient is computed
     */
    public static void backward(Kernels k, RecurrentGates passes, RecurrentGeometry g, float[] dy, int dyOff, boolean returnSequences,
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
                case SIMPLE -> passes.simpleBackward(st, gs, sc, dh, dgs, b, n);
                case LSTM -> passes.lstmBackward(st, gs, extra + s * b * n, sc, dh, dc, dgs, b, n);
                case GRU -> passes.gruBackward(st, gs, extra + s * b * n, hidden + s * b * n, sc, dh, dgs,
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

}
