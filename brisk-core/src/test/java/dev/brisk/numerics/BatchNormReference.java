package dev.brisk.numerics;

/**
 * Float64 reference of the layers around a batch normalization, in Keras layout (NHWC images, kernels
 * {@code [kh, kw, in, out]}, Dense kernels {@code [in, out]}): the exact answer that a float32 implementation is
 * compared with. Every loop sums in double, and the batch statistics are computed in two passes.
 */
final class BatchNormReference {
    private BatchNormReference() {
    }

    /** A 3x3, stride 1, "same" convolution of {@code x[n, h, w, ci]} with {@code k[3, 3, ci, co]} plus bias. */
    static double[] conv3x3Same(double[] x, int n, int h, int w, int ci, double[] k, double[] b, int co) {
        double[] z = new double[n * h * w * co];
        for (int img = 0; img < n; img++) {
            for (int i = 0; i < h; i++) {
                for (int j = 0; j < w; j++) {
                    int zAt = ((img * h + i) * w + j) * co;
                    for (int o = 0; o < co; o++) {
                        z[zAt + o] = b[o];
                    }
                    for (int di = 0; di < 3; di++) {
                        int ii = i + di - 1;
                        for (int dj = 0; dj < 3; dj++) {
                            int jj = j + dj - 1;
                            if (ii < 0 || ii >= h || jj < 0 || jj >= w) {
                                continue;
                            }
                            int xAt = ((img * h + ii) * w + jj) * ci;
                            for (int c = 0; c < ci; c++) {
                                int kAt = ((di * 3 + dj) * ci + c) * co;
                                for (int o = 0; o < co; o++) {
                                    z[zAt + o] += x[xAt + c] * k[kAt + o];
                                }
                            }
                        }
                    }
                }
            }
        }
        return z;
    }

    /** The filter gradient of {@link #conv3x3Same} for the output gradient {@code dz}. */
    static double[] conv3x3SameFilterGradient(double[] x, int n, int h, int w, int ci, double[] dz, int co) {
        double[] dk = new double[9 * ci * co];
        for (int img = 0; img < n; img++) {
            for (int i = 0; i < h; i++) {
                for (int j = 0; j < w; j++) {
                    int zAt = ((img * h + i) * w + j) * co;
                    for (int di = 0; di < 3; di++) {
                        int ii = i + di - 1;
                        for (int dj = 0; dj < 3; dj++) {
                            int jj = j + dj - 1;
                            if (ii < 0 || ii >= h || jj < 0 || jj >= w) {
                                continue;
                            }
                            int xAt = ((img * h + ii) * w + jj) * ci;
                            for (int c = 0; c < ci; c++) {
                                int kAt = ((di * 3 + dj) * ci + c) * co;
                                for (int o = 0; o < co; o++) {
                                    dk[kAt + o] += x[xAt + c] * dz[zAt + o];
                                }
                            }
                        }
                    }
                }
            }
        }
        return dk;
    }

    /** {@code x[rows, in] * k[in, out] + b}. */
    static double[] dense(double[] x, int rows, int in, double[] k, double[] b, int out) {
        double[] z = new double[rows * out];
        for (int r = 0; r < rows; r++) {
            for (int o = 0; o < out; o++) {
                double s = b[o];
                for (int i = 0; i < in; i++) {
                    s += x[r * in + i] * k[i * out + o];
                }
                z[r * out + o] = s;
            }
        }
        return z;
    }

    /** {@code x^T dz}: the kernel gradient of {@link #dense}. */
    static double[] denseKernelGradient(double[] x, int rows, int in, double[] dz, int out) {
        double[] dk = new double[in * out];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < in; i++) {
                for (int o = 0; o < out; o++) {
                    dk[i * out + o] += x[r * in + i] * dz[r * out + o];
                }
            }
        }
        return dk;
    }

    /** Sums of {@code v[m, c]} over its rows: a bias gradient. */
    static double[] channelSums(double[] v, int c) {
        double[] s = new double[c];
        for (int i = 0; i < v.length; i++) {
            s[i % c] += v[i];
        }
        return s;
    }

    /** Forward and backward of a batch normalization over the rows of {@code z[m, c]}. */
    record Pass(double[] mean, double[] variance, double[] y, double[] dz, double[] dgamma, double[] dbeta) {
    }

    /**
     * Training mode: batch statistics (biased variance), {@code y = (z - mean) / sqrt(var + eps) gamma + beta},
     * and the gradients of {@code sum(dy y)}.
     */
    static Pass training(double[] z, int c, double[] gamma, double[] beta, double eps, double[] dy) {
        int m = z.length / c;
        double[] mean = channelSums(z, c);
        for (int j = 0; j < c; j++) {
            mean[j] /= m;
        }
        double[] var = new double[c];
        for (int i = 0; i < z.length; i++) {
            double d = z[i] - mean[i % c];
            var[i % c] += d * d;
        }
        double[] inv = new double[c];
        for (int j = 0; j < c; j++) {
            var[j] /= m;
            inv[j] = 1 / Math.sqrt(var[j] + eps);
        }
        double[] y = new double[z.length];
        double[] xhat = new double[z.length];
        double[] dgamma = new double[c];
        double[] dbeta = new double[c];
        for (int i = 0; i < z.length; i++) {
            int j = i % c;
            xhat[i] = (z[i] - mean[j]) * inv[j];
            y[i] = xhat[i] * gamma[j] + beta[j];
            dgamma[j] += dy[i] * xhat[i];
            dbeta[j] += dy[i];
        }
        double[] dz = new double[z.length];
        for (int i = 0; i < z.length; i++) {
            int j = i % c;
            dz[i] = gamma[j] * inv[j] * (dy[i] - dbeta[j] / m - xhat[i] * dgamma[j] / m);
        }
        return new Pass(mean, var, y, dz, dgamma, dbeta);
    }

    /** Inference mode: the moving statistics normalize, and the gradients of {@code sum(dy y)}. */
    static Pass inference(double[] z, int c, double[] gamma, double[] beta, double eps, double[] movingMean,
                          double[] movingVariance, double[] dy) {
        double[] y = new double[z.length];
        double[] dz = new double[z.length];
        double[] dgamma = new double[c];
        double[] dbeta = new double[c];
        for (int i = 0; i < z.length; i++) {
            int j = i % c;
            double inv = 1 / Math.sqrt(movingVariance[j] + eps);
            double xhat = (z[i] - movingMean[j]) * inv;
            y[i] = xhat * gamma[j] + beta[j];
            dz[i] = dy[i] * gamma[j] * inv;
            dgamma[j] += dy[i] * xhat;
            dbeta[j] += dy[i];
        }
        return new Pass(movingMean, movingVariance, y, dz, dgamma, dbeta);
    }
}
