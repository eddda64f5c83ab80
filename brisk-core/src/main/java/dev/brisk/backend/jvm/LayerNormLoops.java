package dev.brisk.backend.jvm;

/**
 * The layer normalization kernels over {@code [rows, cols]} (normalized along the last axis), shared by the scalar
 * and vector backends so that both give the same bits: the vector backend runs a row's sums through
 * {@link VectorLayerNormRows}, whose lanes do what the scalar loops here do one lane at a time.
 *
 * <p>A row's sums are taken in {@link VectorLayerNormRows#L} float lanes (column {@code c} in lane {@code c % L},
 * whole vectors only), the lanes then added in double in lane order, and the columns past the last whole vector
 * added in double after them. The mean sums {@code x - x[0]}, the row's first element: terms of the size of the
 * spread, so that the float lanes lose no more digits when the mean is large against the spread (the reason
 * {@link BatchNormLoops} and PyTorch's CPU kernels sum in double). The biased variance is taken about that mean in
 * a second pass (the row is in cache). A single chain of double additions, as before, held every pass to one element
 * per add latency (these kernels ran at a few GFLOP/s). Per element the arithmetic is float, so that C2 vectorizes
 * the passes that write a row: {@code x - mean} as {@code (x - hi) - lo}, the double mean split into two floats
 * (where the mean is large against the spread x is within a factor of two of it, and the first subtraction is
 * exact), then a fused multiply-add; an ulp or two, as in PyTorch's float kernels. The gradients recompute each
 * row's statistics from {@code x} rather than keep them: a pass over a row in cache costs less than a buffer kept
 * from the forward pass to the backward.
 *
 * <p>Rows are independent, so the normalization and the input's gradient split rows over the pool with no effect
 * on the bits. The parameters' gradients sum each column over runs of {@link #RUN_ROWS} rows in float (a vector of
 * columns at a time), each run's sum added to a double, and over rows in fixed blocks of {@link #BLOCK_ROWS}, each
 * from zero,
 * added in block order: the same additions on one thread or many. With {@code vector} unset everything runs on
 * the calling thread in scalar loops (the scalar backend).
 */
final class LayerNormLoops {
    /** Rows summed per block of the parameters' gradients. */
    static final int BLOCK_ROWS = 256;
    /** Rows of a block added in float before their sums join the block's double sums (a divisor of BLOCK_ROWS). */
    static final int RUN_ROWS = 16;
    /** Fewest elements per thread for which a kernel splits its work. */
    private static final int GRAIN = 1 << 15;
    private static final int L = VectorLayerNormRows.L;

    private static final RegionTask.Body<LayerNormArgs> NORMALIZE = (a, r0, r1) ->
            normalizeRows(a.vector, a.epsilon, a.x, a.xOff, a.gamma, a.gammaOff, a.beta, a.betaOff, a.out, a.outOff,
                    a.cols, r0, r1);
    private static final RegionTask.Body<LayerNormArgs> INPUT_GRAD = (a, r0, r1) ->
            inputGradRows(a.vector, a.epsilon, a.dy, a.dyOff, a.x, a.xOff, a.gamma, a.gammaOff, a.out, a.outOff,
                    a.cols, r0, r1);
    private static final RegionTask.Body<LayerNormArgs> PARAM_SUMS = (a, b0, b1) ->
            paramBlocks(a.vector, a.epsilon, a.dy, a.dyOff, a.x, a.xOff, a.rows, a.cols, a.blockSums, b0, b1);

    private LayerNormLoops() {
    }

    private static LayerNormArgs args(boolean vector, float epsilon, float[] x, int xOff, int rows, int cols) {
        LayerNormArgs a = LayerNormArgs.get();
        a.vector = vector;
        a.epsilon = epsilon;
        a.x = x;
        a.xOff = xOff;
        a.rows = rows;
        a.cols = cols;
        return a;
    }

    private static void run(LayerNormArgs a, int n, int grain, RegionTask.Body<LayerNormArgs> body) {
        if (!a.vector || n < 2 || Split.serial((long) a.rows * a.cols, GRAIN)) {
            body.run(a, 0, n);
            return;
        }
        a.forRange(n, grain, Split.CHUNKS_PER_THREAD, body);
    }

    /** The double sum of {@code lanes[from, from + L)} in lane order. */
    private static double total(float[] lanes, int from) {
        double t = 0;
        for (int l = 0; l < L; l++) {
            t += lanes[from + l];
        }
        return t;
    }

    /** The mean of {@code x[base, base + cols)}: {@code x[base]} plus the mean of the shifted terms. */
    private static double mean(boolean vector, float[] x, int base, int cols, float[] lanes) {
        if (cols == 0) {
            return 0;
        }
        float s = x[base];
        int full = VectorLayerNormRows.covered(cols);
        if (vector) {
            VectorLayerNormRows.shiftedSums(x, base, full, s, lanes);
        } else {
            for (int l = 0; l < L; l++) {
                float p = 0f;
                for (int c = l; c < full; c += L) {
                    p += x[base + c] - s;
                }
                lanes[l] = p;
            }
        }
        double t = total(lanes, 0);
        for (int c = full; c < cols; c++) {
            t += x[base + c] - s;
        }
        return s + t / cols;
    }

    /** {@code 1 / sqrt(variance + epsilon)} of a row, the biased variance about the mean {@code hi + lo}. */
    private static float inverseDeviation(boolean vector, float[] x, int base, int cols, float hi, float lo,
                                          float epsilon, float[] lanes) {
        int full = VectorLayerNormRows.covered(cols);
        if (vector) {
            VectorLayerNormRows.squares(x, base, full, hi, lo, lanes);
        } else {
            for (int l = 0; l < L; l++) {
                float p = 0f;
                for (int c = l; c < full; c += L) {
                    float d = (x[base + c] - hi) - lo;
                    p = Math.fma(d, d, p);
                }
                lanes[l] = p;
            }
        }
        double t = total(lanes, 0);
        for (int c = full; c < cols; c++) {
            float d = (x[base + c] - hi) - lo;
            t += (double) d * d;
        }
        return (float) (1 / Math.sqrt(t / Math.max(1, cols) + epsilon));
    }

    /**
     * {@code y = (x - mean) / sqrt(variance + epsilon) * gamma + beta} per row.
     *
     * @param vector the vector backend: rows split over the pool, sums in vectors
     */
    static void normalize(boolean vector, float epsilon, float[] x, int xOff, float[] gamma, int gammaOff,
                          float[] beta, int betaOff, float[] y, int yOff, int rows, int cols) {
        LayerNormArgs a = args(vector, epsilon, x, xOff, rows, cols);
        try {
            a.gamma = gamma;
            a.gammaOff = gammaOff;
            a.beta = beta;
            a.betaOff = betaOff;
            a.out = y;
            a.outOff = yOff;
            run(a, rows, Math.max(1, GRAIN / Math.max(1, cols)), NORMALIZE);
        } finally {
            a.clearReferences();
        }
    }

    private static void normalizeRows(boolean vector, float epsilon, float[] x, int xOff, float[] gamma,
                                      int gammaOff, float[] beta, int betaOff, float[] y, int yOff, int cols, int r0,
                                      int r1) {
        float[] lanes = Scratch.get().tail(2 * L);
        for (int r = r0; r < r1; r++) {
            int xi = xOff + r * cols;
            int yi = yOff + r * cols;
            double mean = mean(vector, x, xi, cols, lanes);
            float hi = (float) mean;
            float lo = (float) (mean - hi);
            float inv = inverseDeviation(vector, x, xi, cols, hi, lo, epsilon, lanes);
            int c = 0;
            if (vector) {
                c = VectorLayerNormRows.covered(cols);
                VectorLayerNormRows.normalize(x, xi, gamma, gammaOff, beta, betaOff, y, yi, c, hi, lo, inv);
            }
            for (; c < cols; c++) {
                y[yi + c] = Math.fma((x[xi + c] - hi) - lo, gamma[gammaOff + c] * inv, beta[betaOff + c]);
            }
        }
    }

    /**
     * Beta's gradient (column sums of {@code dy}) into {@code out[0, cols)} and gamma's (column sums of {@code dy}
     * times the normalized x) into the next row.
     *
     * @param vector the vector backend: blocks of rows split over the pool, row sums in vectors
     */
    static void paramGrad(boolean vector, float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] out,
                          int outOff, int rows, int cols) {
        LayerNormArgs a = args(vector, epsilon, x, xOff, rows, cols);
        try {
            a.dy = dy;
            a.dyOff = dyOff;
            int blocks = (rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
            int width = 2 * cols;
            // One extra block's room at the end holds the total.
            if (a.blockSums.length < (blocks + 1) * width) {
                a.blockSums = new double[(blocks + 1) * width];
            }
            double[] sums = a.blockSums;
            run(a, blocks, 1, PARAM_SUMS);
            int total = blocks * width;
            for (int c = 0; c < width; c++) {
                sums[total + c] = 0;
            }
            for (int b = 0; b < blocks; b++) {
                for (int c = 0; c < width; c++) {
                    sums[total + c] += sums[b * width + c];
                }
            }
            for (int c = 0; c < width; c++) {
                out[outOff + c] = (float) sums[total + c];
            }
        } finally {
            a.clearReferences();
        }
    }

    private static void paramBlocks(boolean vector, float epsilon, float[] dy, int dyOff, float[] x, int xOff,
                                    int rows, int cols, double[] blockSums, int b0, int b1) {
        float[] scratch = Scratch.get().tail(2 * L + 3 * RUN_ROWS);
        int full = VectorLayerNormRows.covered(cols);
        for (int b = b0; b < b1; b++) {
            int at = 2 * b * cols;
            for (int c = 0; c < 2 * cols; c++) {
                blockSums[at + c] = 0;
            }
            for (int r0 = b * BLOCK_ROWS, end = Math.min(rows, r0 + BLOCK_ROWS); r0 < end; r0 += RUN_ROWS) {
                int r1 = Math.min(end, r0 + RUN_ROWS);
                // The run's statistics: hi at [2L, ...), lo after RUN_ROWS, rstd after 2 RUN_ROWS.
                int st = 2 * L;
                for (int r = r0; r < r1; r++) {
                    int xi = xOff + r * cols;
                    double mean = mean(vector, x, xi, cols, scratch);
                    float hi = (float) mean;
                    float lo = (float) (mean - hi);
                    scratch[st + r - r0] = hi;
                    scratch[st + RUN_ROWS + r - r0] = lo;
                    scratch[st + 2 * RUN_ROWS + r - r0] = inverseDeviation(vector, x, xi, cols, hi, lo, epsilon,
                            scratch);
                }
                int c = 0;
                if (vector) {
                    c = full;
                    VectorLayerNormRows.paramRun(dy, dyOff, x, xOff, cols, r0, r1, scratch, st, RUN_ROWS, full,
                            blockSums, at);
                }
                for (; c < cols; c++) {
                    float sumG = 0f;
                    float sumGx = 0f;
                    for (int r = r0; r < r1; r++) {
                        int i = r - r0;
                        float g = dy[dyOff + r * cols + c];
                        float xhat = ((x[xOff + r * cols + c] - scratch[st + i]) - scratch[st + RUN_ROWS + i])
                                * scratch[st + 2 * RUN_ROWS + i];
                        sumG += g;
                        sumGx = Math.fma(g, xhat, sumGx);
                    }
                    blockSums[at + c] += sumG;
                    blockSums[at + cols + c] += sumGx;
                }
            }
        }
    }

    /**
     * The input's gradient, {@code rstd (g - mean(g) - xhat mean(g xhat))} per row with {@code g = dy gamma}.
     *
     * @param vector the vector backend: rows split over the pool, sums in vectors
     */
    static void inputGrad(boolean vector, float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] gamma,
                          int gammaOff, float[] dx, int dxOff, int rows, int cols) {
        LayerNormArgs a = args(vector, epsilon, x, xOff, rows, cols);
        try {
            a.dy = dy;
            a.dyOff = dyOff;
            a.gamma = gamma;
            a.gammaOff = gammaOff;
            a.out = dx;
            a.outOff = dxOff;
            run(a, rows, Math.max(1, GRAIN / Math.max(1, cols)), INPUT_GRAD);
        } finally {
            a.clearReferences();
        }
    }

    private static void inputGradRows(boolean vector, float epsilon, float[] dy, int dyOff, float[] x, int xOff,
                                      float[] gamma, int gammaOff, float[] dx, int dxOff, int cols, int r0, int r1) {
        float[] lanes = Scratch.get().tail(2 * L);
        int full = VectorLayerNormRows.covered(cols);
        for (int r = r0; r < r1; r++) {
            int xi = xOff + r * cols;
            int gi = dyOff + r * cols;
            double mean = mean(vector, x, xi, cols, lanes);
            float hi = (float) mean;
            float lo = (float) (mean - hi);
            float rstd = inverseDeviation(vector, x, xi, cols, hi, lo, epsilon, lanes);
            // sum(g) in lanes [0, L) and sum(g xhat) in [L, 2L), then the columns past the last whole vector.
            if (vector) {
                VectorLayerNormRows.gradientSums(dy, gi, gamma, gammaOff, x, xi, full, hi, lo, rstd, lanes);
            } else {
                for (int l = 0; l < L; l++) {
                    float sumG = 0f;
                    float sumGx = 0f;
                    for (int c = l; c < full; c += L) {
                        float g = dy[gi + c] * gamma[gammaOff + c];
                        float xhat = ((x[xi + c] - hi) - lo) * rstd;
                        sumG += g;
                        sumGx = Math.fma(g, xhat, sumGx);
                    }
                    lanes[l] = sumG;
                    lanes[L + l] = sumGx;
                }
            }
            double sumG = total(lanes, 0);
            double sumGx = total(lanes, L);
            for (int j = full; j < cols; j++) {
                float g = dy[gi + j] * gamma[gammaOff + j];
                float xhat = ((x[xi + j] - hi) - lo) * rstd;
                sumG += g;
                sumGx += (double) g * xhat;
            }
            float mg = (float) (sumG / cols);
            float mgx = (float) (sumGx / cols);
            int di = dxOff + r * cols;
            int c = 0;
            if (vector) {
                c = full;
                VectorLayerNormRows.inputGrad(dy, gi, gamma, gammaOff, x, xi, dx, di, full, hi, lo, rstd, mg, mgx);
            }
            for (; c < cols; c++) {
                float xhat = ((x[xi + c] - hi) - lo) * rstd;
                dx[di + c] = Math.fma(-xhat, mgx, dy[gi + c] * gamma[gammaOff + c] - mg) * rstd;
            }
        }
    }
}
