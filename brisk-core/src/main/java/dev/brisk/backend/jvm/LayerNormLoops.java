package dev.brisk.backend.jvm;

/**
 * The layer normalization kernels over {@code [rows, cols]} (normalized along the last axis), shared by the scalar
 * and vector backends so that both give the same bits.
 *
 * <p>Each row's mean is summed in double and its biased variance taken about that mean in a second pass (the row is
 * in cache), as {@link BatchNormLoops} does for batch statistics and PyTorch's CPU kernels do: a float sum loses as
 * many digits as the mean is larger than the spread. Each row sum runs in {@link #LANES} interleaved partial sums
 * ({@link #sum}), so that the additions do not wait on one another (a single chain of double additions held every
 * pass to one element per add latency, and these kernels ran at a few GFLOP/s). The passes that write a row work
 * in float, so that C2 vectorizes them (it does not vectorize float-to-double conversions well): {@code x - mean}
 * as {@code (x - hi) - lo}, the double mean split into two floats (x is within a factor of two of the mean wherever
 * the mean is large against the spread, so the first subtraction is exact there), then a fused multiply-add; an
 * ulp or two, as in PyTorch's float kernels. The gradients recompute each row's statistics from {@code x} rather than keep them: a pass over a row in cache costs
 * less than a buffer kept from the forward pass to the backward.
 *
 * <p>Rows are independent, so the normalization and the input's gradient split rows over the pool with no effect
 * on the bits. The parameters' gradients sum over rows in fixed blocks of {@link #BLOCK_ROWS}, each from zero,
 * added in block order: the same additions on one thread or many. With {@code parallel} unset everything runs on
 * the calling thread (the scalar backend). The loops run along a row, which the JIT vectorizes.
 */
final class LayerNormLoops {
    /** Rows summed per block of the parameters' gradients. */
    static final int BLOCK_ROWS = 256;
    /** Fewest elements per thread for which a kernel splits its work. */
    private static final int GRAIN = 1 << 15;

    private static final RegionTask.Body<LayerNormArgs> NORMALIZE = (a, r0, r1) ->
            normalizeRows(a.epsilon, a.x, a.xOff, a.gamma, a.gammaOff, a.beta, a.betaOff, a.out, a.outOff, a.cols,
                    r0, r1);
    private static final RegionTask.Body<LayerNormArgs> INPUT_GRAD = (a, r0, r1) ->
            inputGradRows(a.epsilon, a.dy, a.dyOff, a.x, a.xOff, a.gamma, a.gammaOff, a.out, a.outOff, a.cols, r0,
                    r1);
    private static final RegionTask.Body<LayerNormArgs> PARAM_SUMS = (a, b0, b1) ->
            paramBlocks(a.epsilon, a.dy, a.dyOff, a.x, a.xOff, a.rows, a.cols, a.blockSums, b0, b1);

    private LayerNormLoops() {
    }

    private static LayerNormArgs args(float epsilon, float[] x, int xOff, int rows, int cols) {
        LayerNormArgs a = LayerNormArgs.get();
        a.epsilon = epsilon;
        a.x = x;
        a.xOff = xOff;
        a.rows = rows;
        a.cols = cols;
        return a;
    }

    private static void run(boolean parallel, LayerNormArgs a, int n, int grain, RegionTask.Body<LayerNormArgs> body) {
        if (!parallel || n < 2 || Split.serial((long) a.rows * a.cols, GRAIN)) {
            body.run(a, 0, n);
            return;
        }
        a.forRange(n, grain, Split.CHUNKS_PER_THREAD, body);
    }

    /**
     * The partial sums of a row: element {@code c} goes to sum {@code c % LANES}, in order, and the sums are added
     * pairwise at the end ({@link #sum}). Four independent chains cover the latency of a double addition.
     */
    static final int LANES = 4;

    /** The total of four partial sums, added pairwise. */
    private static double sum(double s0, double s1, double s2, double s3) {
        return (s0 + s1) + (s2 + s3);
    }

    /** The mean of {@code x[base, base + cols)}, summed in double. */
    private static double mean(float[] x, int base, int cols) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int c = 0;
        for (; c + LANES <= cols; c += LANES) {
            s0 += x[base + c];
            s1 += x[base + c + 1];
            s2 += x[base + c + 2];
            s3 += x[base + c + 3];
        }
        // The last elements (fewer than LANES) in lanes 0, 1, 2.
        for (int lane = 0; c < cols; c++, lane++) {
            if (lane == 0) {
                s0 += x[base + c];
            } else if (lane == 1) {
                s1 += x[base + c];
            } else {
                s2 += x[base + c];
            }
        }
        return sum(s0, s1, s2, s3) / cols;
    }

    /** {@code 1 / sqrt(variance + epsilon)} of a row, the biased variance about {@code mean}. */
    private static double inverseDeviation(float[] x, int base, int cols, double mean, float epsilon) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int c = 0;
        for (; c + LANES <= cols; c += LANES) {
            double d0 = x[base + c] - mean;
            double d1 = x[base + c + 1] - mean;
            double d2 = x[base + c + 2] - mean;
            double d3 = x[base + c + 3] - mean;
            s0 += d0 * d0;
            s1 += d1 * d1;
            s2 += d2 * d2;
            s3 += d3 * d3;
        }
        for (int lane = 0; c < cols; c++, lane++) {
            double d = x[base + c] - mean;
            if (lane == 0) {
                s0 += d * d;
            } else if (lane == 1) {
                s1 += d * d;
            } else {
                s2 += d * d;
            }
        }
        return 1 / Math.sqrt(sum(s0, s1, s2, s3) / cols + epsilon);
    }

    /**
     * {@code y = (x - mean) / sqrt(variance + epsilon) * gamma + beta} per row.
     *
     * @param parallel whether rows may be split over the pool
     */
    static void normalize(boolean parallel, float epsilon, float[] x, int xOff, float[] gamma, int gammaOff,
                          float[] beta, int betaOff, float[] y, int yOff, int rows, int cols) {
        LayerNormArgs a = args(epsilon, x, xOff, rows, cols);
        try {
            a.gamma = gamma;
            a.gammaOff = gammaOff;
            a.beta = beta;
            a.betaOff = betaOff;
            a.out = y;
            a.outOff = yOff;
            run(parallel, a, rows, Math.max(1, GRAIN / Math.max(1, cols)), NORMALIZE);
        } finally {
            a.clearReferences();
        }
    }

    private static void normalizeRows(float epsilon, float[] x, int xOff, float[] gamma, int gammaOff, float[] beta,
                                      int betaOff, float[] y, int yOff, int cols, int r0, int r1) {
        for (int r = r0; r < r1; r++) {
            int xi = xOff + r * cols;
            int yi = yOff + r * cols;
            double mean = mean(x, xi, cols);
            float inv = (float) inverseDeviation(x, xi, cols, mean, epsilon);
            float hi = (float) mean;
            float lo = (float) (mean - hi);
            for (int c = 0; c < cols; c++) {
                y[yi + c] = Math.fma((x[xi + c] - hi) - lo, inv * gamma[gammaOff + c], beta[betaOff + c]);
            }
        }
    }

    /**
     * Beta's gradient (column sums of {@code dy}) into {@code out[0, cols)} and gamma's (column sums of {@code dy}
     * times the normalized x) into the next row.
     *
     * @param parallel whether blocks of rows may be split over the pool
     */
    static void paramGrad(boolean parallel, float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] out,
                          int outOff, int rows, int cols) {
        LayerNormArgs a = args(epsilon, x, xOff, rows, cols);
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
            run(parallel, a, blocks, 1, PARAM_SUMS);
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

    private static void paramBlocks(float epsilon, float[] dy, int dyOff, float[] x, int xOff, int rows, int cols,
                                    double[] blockSums, int b0, int b1) {
        for (int b = b0; b < b1; b++) {
            int at = 2 * b * cols;
            for (int c = 0; c < 2 * cols; c++) {
                blockSums[at + c] = 0;
            }
            for (int r = b * BLOCK_ROWS, end = Math.min(rows, r + BLOCK_ROWS); r < end; r++) {
                int xi = xOff + r * cols;
                int gi = dyOff + r * cols;
                double mean = mean(x, xi, cols);
                double inv = inverseDeviation(x, xi, cols, mean, epsilon);
                for (int c = 0; c < cols; c++) {
                    double g = dy[gi + c];
                    blockSums[at + c] += g;
                    blockSums[at + cols + c] += g * ((x[xi + c] - mean) * inv);
                }
            }
        }
    }

    /**
     * The input's gradient, {@code rstd (g - mean(g) - xhat mean(g xhat))} per row with {@code g = dy gamma}.
     *
     * @param parallel whether rows may be split over the pool
     */
    static void inputGrad(boolean parallel, float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] gamma,
                          int gammaOff, float[] dx, int dxOff, int rows, int cols) {
        LayerNormArgs a = args(epsilon, x, xOff, rows, cols);
        try {
            a.dy = dy;
            a.dyOff = dyOff;
            a.gamma = gamma;
            a.gammaOff = gammaOff;
            a.out = dx;
            a.outOff = dxOff;
            run(parallel, a, rows, Math.max(1, GRAIN / Math.max(1, cols)), INPUT_GRAD);
        } finally {
            a.clearReferences();
        }
    }

    private static void inputGradRows(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] gamma,
                                      int gammaOff, float[] dx, int dxOff, int cols, int r0, int r1) {
        for (int r = r0; r < r1; r++) {
            int xi = xOff + r * cols;
            int gi = dyOff + r * cols;
            double mean = mean(x, xi, cols);
            double inv = inverseDeviation(x, xi, cols, mean, epsilon);
            // sum(g) in g0..g3 and sum(g xhat) in h0..h3, element c in lane c % LANES.
            double g0 = 0;
            double g1 = 0;
            double g2 = 0;
            double g3 = 0;
            double h0 = 0;
            double h1 = 0;
            double h2 = 0;
            double h3 = 0;
            int c = 0;
            for (; c + LANES <= cols; c += LANES) {
                double a0 = (double) dy[gi + c] * gamma[gammaOff + c];
                double a1 = (double) dy[gi + c + 1] * gamma[gammaOff + c + 1];
                double a2 = (double) dy[gi + c + 2] * gamma[gammaOff + c + 2];
                double a3 = (double) dy[gi + c + 3] * gamma[gammaOff + c + 3];
                g0 += a0;
                g1 += a1;
                g2 += a2;
                g3 += a3;
                h0 += a0 * ((x[xi + c] - mean) * inv);
                h1 += a1 * ((x[xi + c + 1] - mean) * inv);
                h2 += a2 * ((x[xi + c + 2] - mean) * inv);
                h3 += a3 * ((x[xi + c + 3] - mean) * inv);
            }
            for (int lane = 0; c < cols; c++, lane++) {
                double a = (double) dy[gi + c] * gamma[gammaOff + c];
                double b = a * ((x[xi + c] - mean) * inv);
                if (lane == 0) {
                    g0 += a;
                    h0 += b;
                } else if (lane == 1) {
                    g1 += a;
                    h1 += b;
                } else {
                    g2 += a;
                    h2 += b;
                }
            }
            double meanG = sum(g0, g1, g2, g3) / cols;
            double meanGx = sum(h0, h1, h2, h3) / cols;
            int di = dxOff + r * cols;
            float hi = (float) mean;
            float lo = (float) (mean - hi);
            float rstd = (float) inv;
            float mg = (float) meanG;
            float mgx = (float) meanGx;
            for (int j = 0; j < cols; j++) {
                float xhat = ((x[xi + j] - hi) - lo) * rstd;
                dx[di + j] = rstd * Math.fma(-xhat, mgx, dy[gi + j] * gamma[gammaOff + j] - mg);
            }
        }
    }
}
