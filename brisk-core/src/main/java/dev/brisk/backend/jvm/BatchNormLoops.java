package dev.brisk.backend.jvm;

/**
 * The batch normalization kernels over {@code [rows, channels]} (channels last), shared by the scalar and vector
 * backends so that both give the same bits.
 *
 * <p>Every sum over the rows is accumulated in double per channel, and the variance is taken about the mean in a
 * second pass (the data is in cache): a float sum of tens of thousands of values around a mean of a few units loses
 * as many digits as the mean is larger than the spread, and the normalization and its gradients inherit the loss
 * (PyTorch's CPU kernels accumulate in double for the same reason). The per-element arithmetic is in double too and
 * rounded once, so an output is the float nearest to its value from the float inputs and statistics.
 *
 * <p>The rows are summed in fixed blocks of {@link #BLOCK_ROWS}, each from zero, and the blocks' sums are then added
 * in block order: the same additions whether the blocks run on one thread or on many, so the bits depend neither on
 * the thread budget nor on the backend. With {@code parallel} set, blocks (for the sums) and rows (for the
 * elementwise passes) are split over the pool. The loops run along the channels of one row, which the JIT
 * vectorizes; the holders and accumulators are per-thread, so a call allocates nothing once they have grown.
 */
final class BatchNormLoops {
    /** Rows summed per block. */
    static final int BLOCK_ROWS = 256;
    /** Fewest elements per thread for which a kernel splits its work (the vector kernels' grain). */
    private static final int GRAIN = 1 << 15;

    private static final RegionTask.Body<BatchNormArgs> SUMS = (a, b0, b1) ->
            sumBlocks(a.x, a.xOff, a.rows, a.channels, a.blockSums, b0, b1);
    private static final RegionTask.Body<BatchNormArgs> SQUARES = (a, b0, b1) ->
            squareBlocks(a.x, a.xOff, a.rows, a.channels, a.perChannel, a.blockSums, b0, b1);
    private static final RegionTask.Body<BatchNormArgs> PARAM_SUMS = (a, b0, b1) ->
            paramBlocks(a.dy, a.dyOff, a.x, a.xOff, a.stats, a.statsOff, a.rows, a.channels, a.blockSums, b0, b1);
    private static final RegionTask.Body<BatchNormArgs> NORMALIZE = (a, r0, r1) ->
            normalizeRows(a.x, a.xOff, a.perChannel, a.out, a.outOff, a.channels, r0, r1);
    private static final RegionTask.Body<BatchNormArgs> INPUT_GRAD = (a, r0, r1) ->
            inputGradRows(a.training, a.dy, a.dyOff, a.x, a.xOff, a.stats, a.statsOff, a.perChannel, a.out,
                    a.outOff, a.channels, r0, r1);

    private static final ThreadLocal<double[][]> ACCUMULATORS =
            ThreadLocal.withInitial(() -> new double[][] {new double[0], new double[0]});

    private BatchNormLoops() {
    }

    /** This thread's holder, filled with the operands every kernel has. */
    private static BatchNormArgs args(float[] x, int xOff, int rows, int channels) {
        BatchNormArgs a = BatchNormArgs.get();
        a.x = x;
        a.xOff = xOff;
        a.rows = rows;
        a.channels = channels;
        double[][] acc = ACCUMULATORS.get();
        if (acc[0].length < 3 * channels) {
            acc[0] = new double[3 * channels];
        }
        int blockSums = 2 * channels * blocks(rows);
        if (acc[1].length < blockSums) {
            acc[1] = new double[blockSums];
        }
        a.perChannel = acc[0];
        a.blockSums = acc[1];
        return a;
    }

    private static int blocks(int rows) {
        return (rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
    }

    /** Runs {@code body} over {@code [0, n)} of blocks or rows, on the pool where {@code parallel} and it pays. */
    private static void run(boolean parallel, BatchNormArgs a, int n, int grain, RegionTask.Body<BatchNormArgs> body) {
        if (!parallel || Split.serial((long) a.rows * a.channels, GRAIN) || n < 2) {
            body.run(a, 0, n);
            return;
        }
        a.forRange(n, grain, Split.CHUNKS_PER_THREAD, body);
    }

    /** Adds the blocks' sums, {@code width} values per block, in block order into {@code dst[0, width)}. */
    private static void addBlocks(double[] blockSums, int blocks, int width, double[] dst) {
        for (int c = 0; c < width; c++) {
            dst[c] = 0;
        }
        for (int b = 0; b < blocks; b++) {
            int at = b * width;
            for (int c = 0; c < width; c++) {
                dst[c] += blockSums[at + c];
            }
        }
    }

    /** The mean per channel, then the biased variance about it, into {@code out[0, channels)} and the next row. */
    static void statistics(boolean parallel, float[] x, int xOff, int rows, int channels, float[] out, int outOff) {
        BatchNormArgs a = args(x, xOff, rows, channels);
        try {
            int blocks = blocks(rows);
            double[] acc = a.perChannel;
            run(parallel, a, blocks, 1, SUMS);
            addBlocks(a.blockSums, blocks, channels, acc);
            for (int c = 0; c < channels; c++) {
                acc[c] /= rows;
                out[outOff + c] = (float) acc[c];
            }
            a.x = x; // a region drops the holder's references when it ends
            run(parallel, a, blocks, 1, SQUARES);
            addBlocks(a.blockSums, blocks, channels, acc);
            for (int c = 0; c < channels; c++) {
                out[outOff + channels + c] = (float) (acc[c] / rows);
            }
        } finally {
            a.clearReferences();
        }
    }

    /** Block sums of {@code x} over blocks {@code [b0, b1)}. */
    private static void sumBlocks(float[] x, int xOff, int rows, int channels, double[] blockSums, int b0, int b1) {
        for (int b = b0; b < b1; b++) {
            int at = b * channels;
            for (int c = 0; c < channels; c++) {
                blockSums[at + c] = 0;
            }
            for (int r = b * BLOCK_ROWS, end = Math.min(rows, r + BLOCK_ROWS); r < end; r++) {
                int base = xOff + r * channels;
                for (int c = 0; c < channels; c++) {
                    blockSums[at + c] += x[base + c];
                }
            }
        }
    }

    /** Block sums of {@code (x - mean)^2} over blocks {@code [b0, b1)}. */
    private static void squareBlocks(float[] x, int xOff, int rows, int channels, double[] mean, double[] blockSums,
                                     int b0, int b1) {
        for (int b = b0; b < b1; b++) {
            int at = b * channels;
            for (int c = 0; c < channels; c++) {
                blockSums[at + c] = 0;
            }
            for (int r = b * BLOCK_ROWS, end = Math.min(rows, r + BLOCK_ROWS); r < end; r++) {
                int base = xOff + r * channels;
                for (int c = 0; c < channels; c++) {
                    double d = x[base + c] - mean[c];
                    blockSums[at + c] += d * d;
                }
            }
        }
    }

    /** {@code 1 / sqrt(variance + epsilon)} of channel {@code c} of the statistics. */
    private static double inverseDeviation(float[] stats, int statsOff, int channels, int c, float epsilon) {
        return 1 / Math.sqrt((double) stats[statsOff + channels + c] + epsilon);
    }

    /** {@code y = (x - mean) / sqrt(variance + epsilon) * gamma + beta}. */
    static void normalize(boolean parallel, float epsilon, float[] x, int xOff, float[] stats, int statsOff,
                          float[] gamma, int gammaOff, float[] beta, int betaOff, float[] y, int yOff, int rows,
                          int channels) {
        BatchNormArgs a = args(x, xOff, rows, channels);
        try {
            double[] k = a.perChannel;
            for (int c = 0; c < channels; c++) {
                k[c] = stats[statsOff + c];
                k[channels + c] = gamma[gammaOff + c] * inverseDeviation(stats, statsOff, channels, c, epsilon);
                k[2 * channels + c] = beta[betaOff + c];
            }
            a.out = y;
            a.outOff = yOff;
            run(parallel, a, rows, Math.max(1, GRAIN / channels), NORMALIZE);
        } finally {
            a.clearReferences();
        }
    }

    /** Rows {@code [r0, r1)} of {@link #normalize}, with mean, scale and offset per channel in {@code k}. */
    private static void normalizeRows(float[] x, int xOff, double[] k, float[] y, int yOff, int channels, int r0,
                                      int r1) {
        for (int r = r0; r < r1; r++) {
            int xi = xOff + r * channels;
            int yi = yOff + r * channels;
            for (int c = 0; c < channels; c++) {
                y[yi + c] = (float) ((x[xi + c] - k[c]) * k[channels + c] + k[2 * channels + c]);
            }
        }
    }

    /**
     * The gradients of beta (the sums of {@code dy}) into {@code out[0, channels)} and of gamma (the sums of
     * {@code dy} times the normalized {@code x}) into the next row.
     */
    static void paramGrad(boolean parallel, float epsilon, float[] dy, int dyOff, float[] x, int xOff,
                          float[] stats, int statsOff, float[] out, int outOff, int rows, int channels) {
        BatchNormArgs a = args(x, xOff, rows, channels);
        try {
            a.dy = dy;
            a.dyOff = dyOff;
            a.stats = stats;
            a.statsOff = statsOff;
            int blocks = blocks(rows);
            run(parallel, a, blocks, 1, PARAM_SUMS);
            double[] acc = a.perChannel;
            addBlocks(a.blockSums, blocks, 2 * channels, acc);
            for (int c = 0; c < channels; c++) {
                out[outOff + c] = (float) acc[c];
                out[outOff + channels + c] =
                        (float) (acc[channels + c] * inverseDeviation(stats, statsOff, channels, c, epsilon));
            }
        } finally {
            a.clearReferences();
        }
    }

    /** Block sums of {@code dy} and of {@code dy (x - mean)} over blocks {@code [b0, b1)}. */
    private static void paramBlocks(float[] dy, int dyOff, float[] x, int xOff, float[] stats, int statsOff,
                                    int rows, int channels, double[] blockSums, int b0, int b1) {
        for (int b = b0; b < b1; b++) {
            int at = 2 * b * channels;
            for (int c = 0; c < 2 * channels; c++) {
                blockSums[at + c] = 0;
            }
            for (int r = b * BLOCK_ROWS, end = Math.min(rows, r + BLOCK_ROWS); r < end; r++) {
                int base = r * channels;
                for (int c = 0; c < channels; c++) {
                    double g = dy[dyOff + base + c];
                    blockSums[at + c] += g;
                    blockSums[at + channels + c] += g * (x[xOff + base + c] - (double) stats[statsOff + c]);
                }
            }
        }
    }

    /**
     * The gradient of {@code x}: {@code gamma / sd (dy - dbeta / rows - xhat dgamma / rows)} in training mode, where
     * the statistics are the batch's own, and {@code gamma / sd dy} with fixed statistics; {@code sums} holds dbeta
     * and dgamma ({@link #paramGrad}).
     */
    static void inputGrad(boolean parallel, float epsilon, boolean training, float[] dy, int dyOff, float[] x,
                          int xOff, float[] stats, int statsOff, float[] gamma, int gammaOff, float[] sums,
                          int sumsOff, float[] dx, int dxOff, int rows, int channels) {
        BatchNormArgs a = args(x, xOff, rows, channels);
        try {
            double[] k = a.perChannel;
            for (int c = 0; c < channels; c++) {
                double inv = inverseDeviation(stats, statsOff, channels, c, epsilon);
                k[c] = gamma[gammaOff + c] * inv;
                k[channels + c] = training ? (double) sums[sumsOff + c] / rows : 0;
                k[2 * channels + c] = training ? inv * sums[sumsOff + channels + c] / rows : 0;
            }
            a.dy = dy;
            a.dyOff = dyOff;
            a.stats = stats;
            a.statsOff = statsOff;
            a.out = dx;
            a.outOff = dxOff;
            a.training = training;
            run(parallel, a, rows, Math.max(1, GRAIN / channels), INPUT_GRAD);
        } finally {
            a.clearReferences();
        }
    }

    /** Rows {@code [r0, r1)} of {@link #inputGrad}, with its coefficients per channel in {@code k}. */
    private static void inputGradRows(boolean training, float[] dy, int dyOff, float[] x, int xOff, float[] stats,
                                      int statsOff, double[] k, float[] dx, int dxOff, int channels, int r0, int r1) {
        if (!training) {
            for (int r = r0; r < r1; r++) {
                int base = r * channels;
                for (int c = 0; c < channels; c++) {
                    dx[dxOff + base + c] = (float) (dy[dyOff + base + c] * k[c]);
                }
            }
            return;
        }
        for (int r = r0; r < r1; r++) {
            int base = r * channels;
            for (int c = 0; c < channels; c++) {
                double centered = x[xOff + base + c] - (double) stats[statsOff + c];
                dx[dxOff + base + c] = (float) (k[c]
                        * (dy[dyOff + base + c] - k[channels + c] - centered * k[2 * channels + c]));
            }
        }
    }
}
