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
     * @param mask the mask {@code [batch, steps]} (nonzero for real steps) when {@link RecurrentGeometry#masked}
     * @param maskOff index of its first element
     * @param init the initial state {@code [batch, states units]} when {@link RecurrentGeometry#initialState}
     * @param initOff index of its first element
     * @param st receives the kept state
     * @param stOff index of its first element
     * @param y receives the output ({@link RecurrentGeometry#outputRowWidth} floats per row)
     * @param yOff index of its first element
     */
    public static void forward(Kernels k, RecurrentGates passes, RecurrentGeometry g, float[] x, int xOff,
                               float[] w, int wOff, float[] u, int uOff, float[] bias, int biasOff, float[] mask,
                               int maskOff, float[] init, int initOff, float[] st, int stOff, float[] y, int yOff) {
        int b = g.batch();
        int t = g.steps();
        int in = g.inputs();
        int n = g.units();
        int gw = g.gateWidth();
        boolean lstm = g.cell() == RecurrentCell.LSTM;
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
        if (g.initialState()) {
            int sw = g.states() * n;
            k.copy2d(init, initOff, sw, st, hidden, n, b, n);
            if (lstm) {
                k.copy2d(init, initOff + n, sw, st, extra, n, b, n);
            }
        } else {
            k.fill(st, hidden, b * n, 0f);
            if (lstm) {
                k.fill(st, extra, b * n, 0f);
            }
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
            if (g.masked()) {
                // A masked step carries the state through unchanged (its gates were computed and are ignored).
                int time = g.time(s);
                for (int r = 0; r < b; r++) {
                    if (mask[maskOff + r * t + time] == 0f) {
                        k.copy(st, hPrev + r * n, st, hNext + r * n, n);
                        if (lstm) {
                            int c = extra + s * b * n + r * n;
                            k.copy(st, c, st, c + b * n, n);
                        }
                    }
                }
            }
        }
        writeOutput(k, g, mask, maskOff, st, hidden, y, yOff);
        if (g.returnState()) {
            int row = g.outputRowWidth();
            k.copy2d(st, hidden + t * b * n, n, y, yOff + g.outputWidth(), row, b, n);
            if (lstm) {
                k.copy2d(st, extra + t * b * n, n, y, yOff + g.outputWidth() + n, row, b, n);
            }
        }
    }

    /**
     * The output before the states: every step's hidden state in processing order (or time order,
     * {@link RecurrentGeometry#outputPosition}), or the last one. With a mask,
     * a step outputs its state when some step up to it was real (the state then is the last real step's, which is
     * the previous output Keras repeats) and zeros before that; with {@code zeroOutputForMask}, zeros at every
     * masked step.
     */
    private static void writeOutput(Kernels k, RecurrentGeometry g, float[] mask, int maskOff, float[] st,
                                    int hidden, float[] y, int yOff) {
        int b = g.batch();
        int t = g.steps();
        int n = g.units();
        int row = g.outputRowWidth();
        if (!g.masked()) {
            if (g.returnSequences()) {
                for (int s = 0; s < t; s++) {
                    k.copy2d(st, hidden + (s + 1) * b * n, n, y, yOff + g.outputPosition(s) * n, row, b, n);
                }
            } else {
                k.copy2d(st, hidden + t * b * n, n, y, yOff, row, b, n);
            }
            return;
        }
        for (int r = 0; r < b; r++) {
            boolean seen = false;
            for (int s = 0; s < t; s++) {
                boolean real = mask[maskOff + r * t + g.time(s)] != 0f;
                seen |= real;
                if (!g.returnSequences()) {
                    continue;
                }
                int to = yOff + r * row + g.outputPosition(s) * n;
                if (real || (seen && !g.zeroOutputForMask())) {
                    k.copy(st, hidden + (s + 1) * b * n + r * n, y, to, n);
                } else {
                    k.fill(y, to, n, 0f);
                }
            }
            if (!g.returnSequences()) {
                if (seen) {
                    k.copy(st, hidden + t * b * n + r * n, y, yOff + r * row, n);
                } else {
                    k.fill(y, yOff + r * row, n, 0f);
                }
            }
        }
    }

    /**
     * {@link Kernels#recurrentBackward} with the gate passes of {@code passes}.
     *
     * @param k the backend, for its products and copies
     * @param passes the per-step passes over the gates
     * @param g the geometry
     * @param dy the upstream gradient, shaped like the output
     * @param dyOff index of its first element
     * @param w the kernel
     * @param wOff index of its first element
     * @param u the recurrent kernel
     * @param uOff index of its first element
     * @param mask the mask when {@link RecurrentGeometry#masked}
     * @param maskOff index of its first element
     * @param st the kept state
     * @param stOff index of its first element
     * @param sc the scratch
     * @param scOff index of its first element
     * @param out receives the packed gradients
     * @param outOff index of its first element
     * @param inputGradient whether the input's gradient is computed
     */
    public static void backward(Kernels k, RecurrentGates passes, RecurrentGeometry g, float[] dy, int dyOff,
                                float[] w, int wOff, float[] u, int uOff, float[] mask, int maskOff, float[] st,
                                int stOff, float[] sc, int scOff, float[] out, int outOff, boolean inputGradient) {
        int b = g.batch();
        int t = g.steps();
        int in = g.inputs();
        int n = g.units();
        int gw = g.gateWidth();
        int row = g.outputRowWidth();
        boolean lstm = g.cell() == RecurrentCell.LSTM;
        int gates = stOff + g.gatesOffset();
        int hidden = stOff + g.hiddenOffset();
        int extra = stOff + g.extraOffset();
        int dGates = scOff + g.gateGradientOffset();
        int dRec = scOff + g.recurrentGradientOffset();
        int dh = scOff + g.hiddenGradientOffset();
        int dc = scOff + g.cellGradientOffset();
        int ones = scOff + g.onesOffset();
        int saved = scOff + g.maskSaveOffset();
        int first = scOff + g.firstRealOffset();
        if (g.returnState()) {
            // The final states' gradients start the running ones.
            k.copy2d(dy, dyOff + g.outputWidth(), row, sc, dh, n, b, n);
            if (lstm) {
                k.copy2d(dy, dyOff + g.outputWidth() + n, row, sc, dc, n, b, n);
            } else {
                k.fill(sc, dc, b * n, 0f);
            }
        } else {
            k.fill(sc, dh, b * n, 0f);
            k.fill(sc, dc, b * n, 0f);
        }
        k.fill(sc, ones, g.rows(), 1f);
        if (g.masked()) {
            for (int r = 0; r < b; r++) {
                int f = t;
                for (int s = t - 1; s >= 0; s--) {
                    if (mask[maskOff + r * t + g.time(s)] != 0f) {
                        f = s;
                    }
                }
                sc[first + r] = f;
            }
        }
        for (int s = t - 1; s >= 0; s--) {
            // dh += the upstream gradient of this step's output (only rows whose output is this step's state)
            if (g.returnSequences() || s == t - 1) {
                int dyStep = dyOff + (g.returnSequences() ? g.outputPosition(s) * n : 0);
                if (!g.masked()) {
                    addRows(dy, dyStep, row, sc, dh, b, n);
                } else {
                    for (int r = 0; r < b; r++) {
                        boolean real = mask[maskOff + r * t + g.time(s)] != 0f;
                        boolean output = g.returnSequences() && g.zeroOutputForMask() ? real : sc[first + r] <= s;
                        if (output) {
                            addRows(dy, dyStep + r * row, row, sc, dh + r * n, 1, n);
                        }
                    }
                }
            }
            int gs = gates + s * b * gw;
            int dgs = dGates + s * b * gw;
            int time = g.time(s);
            if (g.masked()) {
                saveMaskedRows(k, g, mask, maskOff + time, sc, dh, dc, saved, true);
            }
            switch (g.cell()) {
                case SIMPLE -> passes.simpleBackward(st, gs, sc, dh, dgs, b, n);
                case LSTM -> passes.lstmBackward(st, gs, extra + s * b * n, sc, dh, dc, dgs, b, n);
                case GRU -> passes.gruBackward(st, gs, extra + s * b * n, hidden + s * b * n, sc, dh, dgs,
                        dRec + s * b * gw, b, n);
            }
            if (g.masked()) {
                // Masked rows' gates get no gradient: nothing reaches the weights or the input from them.
                for (int r = 0; r < b; r++) {
                    if (mask[maskOff + r * t + time] == 0f) {
                        k.fill(sc, dgs + r * gw, gw, 0f);
                        if (g.cell() == RecurrentCell.GRU) {
                            k.fill(sc, dRec + s * b * gw + r * gw, gw, 0f);
                        }
                    }
                }
            }
            if (s > 0 || g.initialState()) {
                // dh_prev (+)= dRec_s U^T; GRU's dh already holds the direct part z dh.
                k.gemm(false, true, b, n, gw, sc, dRec + s * b * gw, gw, u, uOff, gw, sc, dh, n,
                        g.cell() == RecurrentCell.GRU);
            }
            if (g.masked()) {
                // ... and pass the state's gradient straight through to the previous step.
                saveMaskedRows(k, g, mask, maskOff + time, sc, dh, dc, saved, false);
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
        o += g.biasSize();
        if (g.initialState()) {
            int sw = g.states() * n;
            k.copy2d(sc, dh, n, out, o, sw, b, n);
            if (lstm) {
                k.copy2d(sc, dc, n, out, o + n, sw, b, n);
            }
        }
    }

    /**
     * Copies the masked rows' running state gradients ({@code dh}, and LSTM's {@code dc}) to the save area
     * ({@code save}) or back from it; {@code maskAt} is the mask's index of row 0 at this step.
     */
    private static void saveMaskedRows(Kernels k, RecurrentGeometry g, float[] mask, int maskAt, float[] sc, int dh,
                                       int dc, int saved, boolean save) {
        int b = g.batch();
        int n = g.units();
        int t = g.steps();
        for (int r = 0; r < b; r++) {
            if (mask[maskAt + r * t] == 0f) {
                int at = r * n;
                if (save) {
                    k.copy(sc, dh + at, sc, saved + at, n);
                    k.copy(sc, dc + at, sc, saved + b * n + at, n);
                } else {
                    k.copy(sc, saved + at, sc, dh + at, n);
                    k.copy(sc, saved + b * n + at, sc, dc + at, n);
                }
            }
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
