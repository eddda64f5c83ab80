package dev.brisk.backend.jvm;

/**
 * The layer normalization kernels over {@code [rows, cols]} (normalized along the last axis), shared by the scalar
 * and vector backends so that both give the same bits.
 *
 * <p>Each row's mean is summed in double and its biased variance taken about that mean in a second pass (the row is
 * in cache), as {@link BatchNormLoops} does for batch statistics and PyTorch's CPU kernels do: a float sum loses as
 * many digits as the mean is larger than the spread. Per-element arithmetic is in double, rounded once. The
 * gradients recompute each row's statistics from {@code x} rather than keep them: a pass over a row in cache costs
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

    /** The mean of {@code x[base, base + cols)}, summed in double. */
    private static double mean(float[] x, int base, int cols) {
        double s = 0;
        for (int c = 0; c < cols; c++) {
            s += x[base + c];
        }
        return s / cols;
    }

    /** {@code 1 / sqrt(variance + epsilon)} of a row, the biased variance about {@code mean}. */
    private static double inverseDeviation(float[] x, int base, int cols, double mean, float epsilon) {
        double s = 0;
        for (int c = 0; c < cols; c++) {
            double d = x[base + c] - mean;
            s += d * d;
        }
        return 1 / Math.sqrt(s / cols + epsilon);
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
            double inv = inverseDeviation(x, xi, cols, mean, epsilon);
            for (int c = 0; c < cols; c++) {
                y[yi + c] = (float) ((x[xi + c] - mean) * inv * gamma[gammaOff + c] + beta[betaOff + c]);
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
            double sumG = 0;
            double sumGx = 0;
            for (int c = 0; c < cols; c++) {
                double g = (double) dy[gi + c] * gamma[gammaOff + c];
                sumG += g;
                sumGx += g * ((x[xi + c] - mean) * inv);
            }
            double meanG = sumG / cols;
            double meanGx = sumGx / cols;
            int di = dxOff + r * cols;
            for (int c = 0; c < cols; c++) {
                double g = (double) dy[gi + c] * gamma[gammaOff + c];
                double xhat = (x[xi + c] - mean) * inv;
                dx[di + c] = (float) (inv * (g - meanG - xhat * meanGx));
            }
        }
    }
}
