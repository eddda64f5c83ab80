package dev.brisk.backend.jvm;

import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;

/**
 * The batch normalization kernels over {@code [rows, channels]} (channels last), shared by the scalar and vector
 * backends so that both give the same bits: the vector backend runs whole vectors of channels through
 * {@link VectorBatchNormRows}, whose every operation is the one the scalar loop here does to the same element, in
 * the same order, and the channels past the last whole vector through the scalar loops.
 *
 * <p>Sums over the rows: each channel's rows are added in float in runs of {@link #RUN_ROWS}, and each run's sum is
 * added to a double accumulator, so a sum over tens of thousands of rows keeps the digits that a float sum loses in
 * proportion to the mean over the spread (PyTorch's CPU kernels sum in double for the same reason), while the
 * per-element work stays in float vectors (C2 does not vectorize float-to-double conversions well, and a second
 * vector type in the Vector API's shared code slows every kernel). The statistics read the input from memory once:
 * each block of rows is summed, then its squares are taken about the block's own float mean while the block is
 * still in cache, and the blocks' moments are merged in double (Chan's rule for combining partial variances), each
 * corrected by the square of its float mean's rounding. Per element the arithmetic is float with fused
 * multiply-adds: {@code y = fma(x - mean, gamma / sd, beta)}, an error of an ulp or two.
 *
 * <p>The rows are summed in fixed blocks of {@link #BLOCK_ROWS}, each from zero, and the blocks' sums are then added
 * in block order: the same additions whether the blocks run on one thread or on many, so the bits depend neither on
 * the thread budget nor on the backend. With {@code parallel} set, blocks (for the sums) and rows (for the
 * elementwise passes) are split over the pool. The holders and accumulators are per-thread, so a call allocates
 * nothing once they have grown.
 *
 * <p>Two fusions ride on these passes. The forward pass can apply an activation to each chunk of rows it has just
 * normalized, while the chunk is in cache (the backend's own activation loop, so the bits of a separate pass). The
 * backward passes can take relu's gradient on the fly: given relu's output as the {@code gate}, they read
 * {@code gate > 0 ? dy : 0} for {@code dy}, as relu's gradient kernel would have written it; and where that relu
 * read this normalization's own output, they need not read relu's output at all: given gamma and beta, they
 * recompute each normalized value from {@code x} with the forward pass's operations ({@code fma(x - mean,
 * gamma / sd, beta)}, the same floats) and gate {@code dy} where it is not above zero, one input stream fewer.
 */
final class BatchNormLoops {
    /** Rows summed per block. */
    static final int BLOCK_ROWS = 256;
    /** Rows added in float before their sum joins a channel's double accumulator (a divisor of BLOCK_ROWS). */
    static final int RUN_ROWS = 16;
    /** Fewest elements per thread for which a kernel splits its work (the vector kernels' grain). */
    private static final int GRAIN = 1 << 15;

    private static final RegionTask.Body<BatchNormArgs> MOMENTS = BatchNormLoops::momentBlocks;
    private static final RegionTask.Body<BatchNormArgs> PARAM_SUMS = BatchNormLoops::paramBlocks;
    private static final RegionTask.Body<BatchNormArgs> NORMALIZE = BatchNormLoops::normalizeRows;
    private static final RegionTask.Body<BatchNormArgs> INPUT_GRAD = BatchNormLoops::inputGradRows;

    private static final ThreadLocal<double[][]> ACCUMULATORS =
            ThreadLocal.withInitial(() -> new double[][] {new double[0], new double[0]});
    /** Each thread's float sums of one run of rows, two per channel (the holder is shared by a region's threads). */
    private static final ThreadLocal<float[][]> RUN_SUMS = ThreadLocal.withInitial(() -> new float[][] {new float[0]});

    private BatchNormLoops() {
    }

    /**
     * This thread's holder, filled with the operands every kernel has; {@code vector} asks for the Vector API loops
     * over the channels they cover.
     */
    private static BatchNormArgs args(boolean vector, float[] x, int xOff, int rows, int channels) {
        BatchNormArgs a = BatchNormArgs.get();
        a.x = x;
        a.xOff = xOff;
        a.rows = rows;
        a.channels = channels;
        a.vectorBackend = vector;
        a.vectorChannels = vector ? VectorBatchNormRows.covered(channels) : 0;
        a.gate = null;
        a.activation = null;
        double[][] acc = ACCUMULATORS.get();
        if (acc[0].length < 2 * channels) {
            acc[0] = new double[2 * channels];
        }
        int blockSums = 2 * channels * blocks(rows);
        if (acc[1].length < blockSums) {
            acc[1] = new double[blockSums];
        }
        a.perChannel = acc[0];
        a.blockSums = acc[1];
        if (a.coefficients.length < 5 * channels) {
            a.coefficients = new float[5 * channels];
        }
        a.underRelu = false;
        return a;
    }

    /** This thread's array for the sums of one run of rows, at least {@code n} long. */
    private static float[] runSums(int n) {
        float[][] holder = RUN_SUMS.get();
        if (holder[0].length < n) {
            holder[0] = new float[n];
        }
        return holder[0];
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

    /**
     * The mean per channel, then the biased variance about it, into {@code out[0, channels)} and the next row: one
     * read of {@code x}, block by block ({@link #momentBlocks}), then the blocks' moments merged in block order.
     */
    static void statistics(boolean parallel, boolean vector, float[] x, int xOff, int rows, int channels, float[] out,
                           int outOff) {
        BatchNormArgs a = args(vector, x, xOff, rows, channels);
        try {
            int blocks = blocks(rows);
            run(parallel, a, blocks, 1, MOMENTS);
            double[] moments = a.blockSums;
            double[] acc = a.perChannel;
            for (int c = 0; c < channels; c++) {
                acc[c] = 0;
                acc[channels + c] = 0;
            }
            for (int b = 0; b < blocks; b++) {
                int at = 2 * b * channels;
                for (int c = 0; c < channels; c++) {
                    acc[c] += moments[at + c];
                }
            }
            for (int c = 0; c < channels; c++) {
                acc[c] /= rows;
                out[outOff + c] = (float) acc[c];
            }
            for (int b = 0; b < blocks; b++) {
                int at = 2 * b * channels;
                int n = Math.min(rows, (b + 1) * BLOCK_ROWS) - b * BLOCK_ROWS;
                for (int c = 0; c < channels; c++) {
                    // Chan's merge: the block's squares about its own mean, plus n times the square of that mean's
                    // distance from the batch's mean.
                    double shift = moments[at + c] / n - acc[c];
                    acc[channels + c] += moments[at + channels + c] + n * shift * shift;
                }
            }
            for (int c = 0; c < channels; c++) {
                out[outOff + channels + c] = (float) Math.max(0, acc[channels + c] / rows);
            }
        } finally {
            a.clearReferences();
        }
    }

    /**
     * Blocks {@code [b0, b1)} of {@link #statistics}: each block's sums into the first of its two rows of
     * {@code blockSums}, and into the second its squares about its own exact mean, taken about its float mean
     * {@code m'} while its rows are in cache and corrected by {@code n (m - m')^2}.
     */
    private static void momentBlocks(BatchNormArgs a, int b0, int b1) {
        int channels = a.channels;
        // Four runs' float sums, then the block's float means.
        float[] run = runSums(5 * channels);
        int meanOff = 4 * channels;
        double[] moments = a.blockSums;
        for (int b = b0; b < b1; b++) {
            int at = 2 * b * channels;
            int start = b * BLOCK_ROWS;
            int end = Math.min(a.rows, start + BLOCK_ROWS);
            int n = end - start;
            sumBlock(a, false, run, meanOff, start, end, moments, at);
            for (int c = 0; c < channels; c++) {
                run[meanOff + c] = (float) (moments[at + c] / n);
            }
            sumBlock(a, true, run, meanOff, start, end, moments, at + channels);
            for (int c = 0; c < channels; c++) {
                double rounding = moments[at + c] / n - run[meanOff + c];
                moments[at + channels + c] -= n * rounding * rounding;
            }
        }
    }

    /**
     * The sums over rows {@code [start, end)} of {@code x}, or with {@code squares} of {@code (x - mean)^2} about
     * the float means at {@code run[meanOff, meanOff + channels)}, in runs of {@link #RUN_ROWS} added in double, run
     * after run, into {@code dst[at, at + channels)}. The first {@code vectorChannels} channels go in vectors, four
     * runs at a time where four are left ({@link VectorBatchNormRows#sums4}); the runs' float sums pass through
     * {@code run[0, 4 channels)}.
     */
    private static void sumBlock(BatchNormArgs a, boolean squares, float[] run, int meanOff, int start, int end,
                                 double[] dst, int at) {
        int channels = a.channels;
        int cv = a.vectorChannels;
        float[] x = a.x;
        for (int c = 0; c < channels; c++) {
            dst[at + c] = 0;
        }
        while (start < end) {
            int runs = end - start >= 4 * RUN_ROWS ? 4 : 1;
            int n = Math.min(RUN_ROWS, end - start);
            if (cv > 0 && runs == 4) {
                if (squares) {
                    VectorBatchNormRows.squares4(x, a.xOff, channels, cv, run, meanOff, run, start, n);
                } else {
                    VectorBatchNormRows.sums4(x, a.xOff, channels, cv, run, start, n);
                }
            } else if (cv > 0) {
                if (squares) {
                    VectorBatchNormRows.squares(x, a.xOff, channels, cv, run, meanOff, run, start, start + n);
                } else {
                    VectorBatchNormRows.sums(x, a.xOff, channels, cv, run, start, start + n);
                }
            }
            for (int k = 0; k < runs; k++) {
                int first = start + k * n;
                for (int c = cv; c < channels; c++) {
                    float s = 0;
                    for (int r = first, i = a.xOff + first * channels + c; r < first + n; r++, i += channels) {
                        if (squares) {
                            float d = x[i] - run[meanOff + c];
                            s = Math.fma(d, d, s);
                        } else {
                            s += x[i];
                        }
                    }
                    run[k * channels + c] = s;
                }
            }
            for (int c = 0; c < channels; c++) {
                // The runs' sums join the accumulator one after another, in a register rather than through dst.
                double sum = dst[at + c];
                for (int k = 0; k < runs; k++) {
                    sum += run[k * channels + c];
                }
                dst[at + c] = sum;
            }
            start += runs * n;
        }
    }

    /** {@code 1 / sqrt(variance + epsilon)} of channel {@code c} of the statistics. */
    private static double inverseDeviation(float[] stats, int statsOff, int channels, int c, float epsilon) {
        return 1 / Math.sqrt((double) stats[statsOff + channels + c] + epsilon);
    }

    /**
     * {@code gamma / sd} of channel {@code c} as a float: the factor the forward pass multiplies {@code x - mean} by
     * (the gradients recompute relu's input with it, so it must be this same float).
     */
    private static float normalizingScale(float[] stats, int statsOff, float[] gamma, int gammaOff, int channels,
                                          int c, float epsilon) {
        return (float) (gamma[gammaOff + c] * inverseDeviation(stats, statsOff, channels, c, epsilon));
    }

    /**
     * {@code y = activation((x - mean) / sqrt(variance + epsilon) * gamma + beta)}; a null {@code activation} is
     * none.
     */
    static void normalize(boolean parallel, boolean vector, float epsilon, float[] x, int xOff, float[] stats,
                          int statsOff, float[] gamma, int gammaOff, float[] beta, int betaOff, UnaryFn activation,
                          float alpha, float[] y, int yOff, int rows, int channels) {
        normalize(parallel, vector, epsilon, x, xOff, stats, statsOff, gamma, gammaOff, beta, betaOff, null, 0f, null,
                0, true, activation, alpha, y, yOff, rows, channels);
    }

    /**
     * {@link #normalize}, with {@code fn} applied to the normalized values and {@code other} (in that order when
     * {@code normalizedFirst}) before the activation; a null {@code fn} is none.
     */
    static void normalize(boolean parallel, boolean vector, float epsilon, float[] x, int xOff, float[] stats,
                          int statsOff, float[] gamma, int gammaOff, float[] beta, int betaOff, BinaryFn fn,
                          float fnAlpha, float[] other, int otherOff, boolean normalizedFirst, UnaryFn activation,
                          float alpha, float[] y, int yOff, int rows, int channels) {
        BatchNormArgs a = args(vector, x, xOff, rows, channels);
        try {
            float[] k = a.coefficients;
            for (int c = 0; c < channels; c++) {
                k[c] = stats[statsOff + c];
                k[channels + c] = normalizingScale(stats, statsOff, gamma, gammaOff, channels, c, epsilon);
                k[2 * channels + c] = beta[betaOff + c];
            }
            a.out = y;
            a.outOff = yOff;
            a.activation = activation;
            a.alpha = alpha;
            a.binary = fn;
            a.binaryAlpha = fnAlpha;
            a.other = other;
            a.otherOff = otherOff;
            a.normalizedFirst = normalizedFirst;
            run(parallel, a, rows, Math.max(1, GRAIN / channels), NORMALIZE);
        } finally {
            a.clearReferences();
        }
    }

    /**
     * Rows {@code [r0, r1)} of {@link #normalize}, then their binary op and activation while they are in cache. Where
     * the vectors cover every channel, an add and relu (a residual block's join) run in the same pass
     * ({@link VectorBatchNormRows#normalizeAddRelu}, the same bits: 1.1-1.5x at 16-64 channels, one JVM,
     * interleaved), and so does relu alone on rows of one or two vectors (1.3-1.6x at 16 channels, 1.1-1.2x at 32; at
     * 64 it measured 0.9-1.1x, and rows of 1024 must be walked row by row, so wider rows keep relu's own loop).
     */
    private static void normalizeRows(BatchNormArgs a, int r0, int r1) {
        int channels = a.channels;
        int cv = a.vectorChannels;
        float[] k = a.coefficients;
        float[] x = a.x;
        float[] y = a.out;
        // cv > 0 first: only the vector backend may load the vector class.
        if (cv > 0 && cv == channels && (a.activation == null || a.activation == UnaryFn.RELU)
                && (a.binary == BinaryFn.ADD || a.binary == null && channels <= VectorBatchNormRows.NARROW_ROW)) {
            VectorBatchNormRows.normalizeAddRelu(x, a.xOff, k, a.binary == null ? null : a.other, a.otherOff,
                    a.normalizedFirst, a.activation == UnaryFn.RELU, y, a.outOff, channels, r0, r1);
            return;
        }
        if (cv > 0) {
            VectorBatchNormRows.normalize(x, a.xOff, k, y, a.outOff, channels, cv, r0, r1);
        }
        for (int r = r0; r < r1 && cv < channels; r++) {
            int xi = a.xOff + r * channels;
            int yi = a.outOff + r * channels;
            for (int c = cv; c < channels; c++) {
                y[yi + c] = Math.fma(x[xi + c] - k[c], k[channels + c], k[2 * channels + c]);
            }
        }
        if (a.binary != null) {
            int from = a.outOff + r0 * channels;
            int o = a.otherOff + r0 * channels;
            int n = (r1 - r0) * channels;
            if (a.vectorBackend) {
                if (a.normalizedFirst) {
                    VectorElementwise.row(a.binary, a.binaryAlpha, y, from, 1, a.other, o, 1, y, from, n);
                } else {
                    VectorElementwise.row(a.binary, a.binaryAlpha, a.other, o, 1, y, from, 1, y, from, n);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    y[from + i] = a.normalizedFirst ? ScalarKernels.binary(a.binary, a.binaryAlpha, y[from + i],
                            a.other[o + i]) : ScalarKernels.binary(a.binary, a.binaryAlpha, a.other[o + i], y[from + i]);
                }
            }
        }
        if (a.activation != null) {
            int from = a.outOff + r0 * channels;
            int n = (r1 - r0) * channels;
            if (a.vectorBackend) {
                VectorElementwise.unaryRange(a.activation, a.alpha, y, from, y, from, n);
            } else {
                for (int i = from; i < from + n; i++) {
                    y[i] = ScalarKernels.unary(a.activation, a.alpha, y[i]);
                }
            }
        }
    }

    /**
     * The gradients of beta (the sums of {@code dy}) into {@code out[0, channels)} and of gamma (the sums of
     * {@code dy} times the normalized {@code x}) into the next row; with a {@code gate} (relu's output), of
     * {@code gate > 0 ? dy : 0} instead of {@code dy}; with {@code beta} (and no gate), of {@code dy} where relu of
     * this normalization's output (with {@code gamma} and {@code beta}) is above zero.
     */
    static void paramGrad(boolean parallel, boolean vector, float epsilon, float[] dy, int dyOff, float[] gate,
                          int gateOff, float[] x, int xOff, float[] stats, int statsOff, float[] gamma, int gammaOff,
                          float[] beta, int betaOff, float[] out, int outOff, int rows, int channels) {
        BatchNormArgs a = args(vector, x, xOff, rows, channels);
        try {
            a.dy = dy;
            a.dyOff = dyOff;
            a.gate = gate;
            a.gateOff = gateOff;
            a.underRelu = beta != null;
            float[] k = a.coefficients;
            for (int c = 0; c < channels; c++) {
                k[c] = stats[statsOff + c];
                if (a.underRelu) {
                    k[channels + c] = normalizingScale(stats, statsOff, gamma, gammaOff, channels, c, epsilon);
                    k[2 * channels + c] = beta[betaOff + c];
                }
            }
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

    /** {@code dy}, or {@code 0} where a gate is given and its value is not above zero (relu's gradient). */
    private static float gated(float[] dy, int i, float[] gate, int gi) {
        return gate == null || gate[gi] > 0 ? dy[i] : 0f;
    }

    /** {@code g}, or {@code 0} where relu's input {@code fma(centered, scale, shift)} is not above zero. */
    private static float underRelu(float g, float centered, float scale, float shift) {
        return Math.fma(centered, scale, shift) > 0 ? g : 0f;
    }

    /** Block sums of {@code dy} and of {@code dy (x - mean)} over blocks {@code [b0, b1)}. */
    private static void paramBlocks(BatchNormArgs a, int b0, int b1) {
        int channels = a.channels;
        int cv = a.vectorChannels;
        float[] x = a.x;
        float[] dy = a.dy;
        float[] gate = a.gate;
        float[] k = a.coefficients;
        float[] run = runSums(2 * channels);
        double[] blockSums = a.blockSums;
        for (int b = b0; b < b1; b++) {
            int at = 2 * b * channels;
            for (int c = 0; c < 2 * channels; c++) {
                blockSums[at + c] = 0;
            }
            for (int start = b * BLOCK_ROWS, end = Math.min(a.rows, start + BLOCK_ROWS); start < end;
                 start += RUN_ROWS) {
                int stop = Math.min(end, start + RUN_ROWS);
                if (cv > 0) {
                    VectorBatchNormRows.paramSums(dy, a.dyOff, gate, a.gateOff, a.underRelu, x, a.xOff, k, channels,
                            cv, run, start, stop);
                }
                for (int c = cv; c < channels; c++) {
                    float s = 0;
                    float p = 0;
                    for (int r = start, i = start * channels + c; r < stop; r++, i += channels) {
                        float g = gated(dy, a.dyOff + i, gate, a.gateOff + i);
                        float d = x[a.xOff + i] - k[c];
                        if (a.underRelu) {
                            g = underRelu(g, d, k[channels + c], k[2 * channels + c]);
                        }
                        s += g;
                        p = Math.fma(g, d, p);
                    }
                    run[c] = s;
                    run[channels + c] = p;
                }
                for (int c = 0; c < 2 * channels; c++) {
                    blockSums[at + c] += run[c];
                }
            }
        }
    }

    /**
     * The gradient of {@code x}: {@code gamma / sd (dy - dbeta / rows - xhat dgamma / rows)} in training mode, where
     * the statistics are the batch's own, and {@code gamma / sd dy} with fixed statistics; {@code sums} holds dbeta
     * and dgamma ({@link #paramGrad}); a {@code gate}, or {@code beta} for relu of this normalization, as there.
     */
    static void inputGrad(boolean parallel, boolean vector, float epsilon, boolean training, float[] dy, int dyOff,
                          float[] gate, int gateOff, float[] x, int xOff, float[] stats, int statsOff, float[] gamma,
                          int gammaOff, float[] beta, int betaOff, float[] sums, int sumsOff, float[] dx, int dxOff,
                          int rows, int channels) {
        BatchNormArgs a = args(vector, x, xOff, rows, channels);
        try {
            a.underRelu = beta != null;
            float[] k = a.coefficients;
            for (int c = 0; c < channels; c++) {
                double inv = inverseDeviation(stats, statsOff, channels, c, epsilon);
                k[c] = normalizingScale(stats, statsOff, gamma, gammaOff, channels, c, epsilon);
                k[4 * channels + c] = a.underRelu ? beta[betaOff + c] : 0;
                k[channels + c] = training ? (float) ((double) sums[sumsOff + c] / rows) : 0;
                k[2 * channels + c] = training ? (float) (inv * sums[sumsOff + channels + c] / rows) : 0;
                k[3 * channels + c] = stats[statsOff + c];
            }
            a.dy = dy;
            a.dyOff = dyOff;
            a.gate = gate;
            a.gateOff = gateOff;
            a.out = dx;
            a.outOff = dxOff;
            a.training = training;
            run(parallel, a, rows, Math.max(1, GRAIN / channels), INPUT_GRAD);
        } finally {
            a.clearReferences();
        }
    }

    /**
     * Rows {@code [r0, r1)} of {@link #inputGrad}: {@code dx = k (dy - dbeta / rows - (x - mean) inv dgamma / rows)},
     * as {@code k * fma(mean - x, inv dgamma / rows, dy - dbeta / rows)}, with the coefficients per channel in the
     * holder.
     */
    private static void inputGradRows(BatchNormArgs a, int r0, int r1) {
        int channels = a.channels;
        int cv = a.vectorChannels;
        float[] k = a.coefficients;
        float[] x = a.x;
        float[] dy = a.dy;
        float[] gate = a.gate;
        float[] dx = a.out;
        if (cv > 0) {
            VectorBatchNormRows.inputGrad(a.training, dy, a.dyOff, gate, a.gateOff, a.underRelu, x, a.xOff, k, dx,
                    a.outOff, channels, cv, r0, r1);
        }
        for (int r = r0; r < r1 && cv < channels; r++) {
            int base = r * channels;
            for (int c = cv; c < channels; c++) {
                float g = gated(dy, a.dyOff + base + c, gate, a.gateOff + base + c);
                if (a.underRelu) {
                    g = underRelu(g, x[a.xOff + base + c] - k[3 * channels + c], k[c], k[4 * channels + c]);
                }
                float t = a.training
                        ? Math.fma(k[3 * channels + c] - x[a.xOff + base + c], k[2 * channels + c], g - k[channels + c])
                        : g;
                dx[a.outOff + base + c] = k[c] * t;
            }
        }
    }
}
