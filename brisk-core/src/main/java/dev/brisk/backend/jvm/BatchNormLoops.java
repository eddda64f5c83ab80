package dev.brisk.backend.jvm;

import java.util.Arrays;

/**
 * The batch normalization kernels over {@code [rows, channels]} (channels last), shared by the scalar and vector
 * backends so that both give the same bits.
 *
 * <p>Every sum over the rows is accumulated in double per channel, and the variance is taken about the mean in a
 * second pass (the data is in cache): a float sum of tens of thousands of values around a mean of a few units loses
 * as many digits as the mean is larger than the spread, and the normalization and its gradients inherit the loss
 * (PyTorch's CPU kernels accumulate in double for the same reason). The per-element arithmetic is in double too and
 * rounded once, so an output is the float nearest to its value from the float inputs and statistics. The loops run
 * along the channels of one row, which the JIT vectorizes; the per-channel accumulators are per-thread arrays, so a
 * call allocates nothing once they have grown.
 */
final class BatchNormLoops {
    private static final ThreadLocal<double[][]> ACCUMULATORS = ThreadLocal.withInitial(() -> new double[1][0]);

    private BatchNormLoops() {
    }

    /** This thread's {@code 3 channels} doubles, zeroed. */
    private static double[] accumulators(int channels) {
        double[][] holder = ACCUMULATORS.get();
        if (holder[0].length < 3 * channels) {
            holder[0] = new double[3 * channels];
        }
        double[] acc = holder[0];
        Arrays.fill(acc, 0, 3 * channels, 0);
        return acc;
    }

    /** The mean per channel, then the biased variance about it, into {@code out[0, channels)} and the next row. */
    static void statistics(float[] x, int xOff, int rows, int channels, float[] out, int outOff) {
        double[] acc = accumulators(channels);
        for (int r = 0; r < rows; r++) {
            int base = xOff + r * channels;
            for (int c = 0; c < channels; c++) {
                acc[c] += x[base + c];
            }
        }
        for (int c = 0; c < channels; c++) {
            acc[c] /= rows;
        }
        for (int r = 0; r < rows; r++) {
            int base = xOff + r * channels;
            for (int c = 0; c < channels; c++) {
                double d = x[base + c] - acc[c];
                acc[channels + c] += d * d;
            }
        }
        for (int c = 0; c < channels; c++) {
            out[outOff + c] = (float) acc[c];
            out[outOff + channels + c] = (float) (acc[channels + c] / rows);
        }
    }

    /** {@code 1 / sqrt(variance + epsilon)} of channel {@code c} of the statistics. */
    private static double inverseDeviation(float[] stats, int statsOff, int channels, int c, float epsilon) {
        return 1 / Math.sqrt((double) stats[statsOff + channels + c] + epsilon);
    }

    /** {@code y = (x - mean) / sqrt(variance + epsilon) * gamma + beta}. */
    static void normalize(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma,
                          int gammaOff, float[] beta, int betaOff, float[] y, int yOff, int rows, int channels) {
        double[] acc = accumulators(channels);
        for (int c = 0; c < channels; c++) {
            acc[c] = stats[statsOff + c];
            acc[channels + c] = gamma[gammaOff + c] * inverseDeviation(stats, statsOff, channels, c, epsilon);
            acc[2 * channels + c] = beta[betaOff + c];
        }
        for (int r = 0; r < rows; r++) {
            int xi = xOff + r * channels;
            int yi = yOff + r * channels;
            for (int c = 0; c < channels; c++) {
                y[yi + c] = (float) ((x[xi + c] - acc[c]) * acc[channels + c] + acc[2 * channels + c]);
            }
        }
    }

    /**
     * The gradients of beta (the sums of {@code dy}) into {@code out[0, channels)} and of gamma (the sums of
     * {@code dy} times the normalized {@code x}) into the next row.
     */
    static void paramGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] stats, int statsOff,
                          float[] out, int outOff, int rows, int channels) {
        double[] acc = accumulators(channels);
        for (int c = 0; c < channels; c++) {
            acc[2 * channels + c] = stats[statsOff + c];
        }
        for (int r = 0; r < rows; r++) {
            int base = r * channels;
            for (int c = 0; c < channels; c++) {
                double g = dy[dyOff + base + c];
                acc[c] += g;
                acc[channels + c] += g * (x[xOff + base + c] - acc[2 * channels + c]);
            }
        }
        for (int c = 0; c < channels; c++) {
            out[outOff + c] = (float) acc[c];
            out[outOff + channels + c] =
                    (float) (acc[channels + c] * inverseDeviation(stats, statsOff, channels, c, epsilon));
        }
    }

    /**
     * The gradient of {@code x}: {@code gamma / sd (dy - dbeta / rows - xhat dgamma / rows)} in training mode, where
     * the statistics are the batch's own, and {@code gamma / sd dy} with fixed statistics; {@code sums} holds dbeta
     * and dgamma ({@link #paramGrad}).
     */
    static void inputGrad(float epsilon, boolean training, float[] dy, int dyOff, float[] x, int xOff, float[] stats,
                          int statsOff, float[] gamma, int gammaOff, float[] sums, int sumsOff, float[] dx, int dxOff,
                          int rows, int channels) {
        double[] acc = accumulators(channels);
        for (int c = 0; c < channels; c++) {
            double inv = inverseDeviation(stats, statsOff, channels, c, epsilon);
            acc[c] = gamma[gammaOff + c] * inv;
            if (training) {
                acc[channels + c] = (double) sums[sumsOff + c] / rows;
                acc[2 * channels + c] = inv * sums[sumsOff + channels + c] / rows;
            }
        }
        if (!training) {
            for (int r = 0; r < rows; r++) {
                int base = r * channels;
                for (int c = 0; c < channels; c++) {
                    dx[dxOff + base + c] = (float) (dy[dyOff + base + c] * acc[c]);
                }
            }
            return;
        }
        for (int r = 0; r < rows; r++) {
            int base = r * channels;
            for (int c = 0; c < channels; c++) {
                double centered = x[xOff + base + c] - (double) stats[statsOff + c];
                dx[dxOff + base + c] = (float) (acc[c]
                        * (dy[dyOff + base + c] - acc[channels + c] - centered * acc[2 * channels + c]));
            }
        }
    }
}
