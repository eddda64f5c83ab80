package dev.brisk.data.preprocessing;

import dev.brisk.data.ElementwiseTransform;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;

/**
 * Keras' {@code Normalization} over the last axis: {@code (x - mean) / max(sqrt(variance), 1e-7)} per feature (per
 * channel for images), with the mean and (population) variance given or learned from data by {@link #adapt}.
 */
public final class Normalization implements ElementwiseTransform {
    private static final float EPSILON = 1e-7f;
    private final float[] mean;
    private final float[] variance;
    private final float[] scale;

    private Normalization(float[] mean, float[] variance) {
        if (mean.length != variance.length || mean.length == 0) {
            throw new IllegalArgumentException("mean and variance need one value per feature, got " + mean.length
                    + " and " + variance.length);
        }
        this.mean = mean.clone();
        this.variance = variance.clone();
        this.scale = new float[mean.length];
        for (int i = 0; i < mean.length; i++) {
            if (!(variance[i] >= 0)) {
                throw new IllegalArgumentException("variance " + variance[i] + " of feature " + i + " is negative");
            }
            scale[i] = 1f / Math.max((float) Math.sqrt(variance[i]), EPSILON);
        }
    }

    /**
     * A normalization with known statistics, one value per feature (last axis).
     *
     * @param mean the mean of each feature
     * @param variance the variance of each feature
     * @return the normalization
     */
    public static Normalization of(float[] mean, float[] variance) {
        return new Normalization(mean, variance);
    }

    /**
     * Learns the mean and variance of each feature (last axis) from every element of {@code data}: samples or
     * batches, for example {@code pipeline.map(Sample::features)}. Sums are kept in double and merged per tensor
     * (Chan et al.), so large means do not swamp small variances.
     *
     * @param data the samples or batches
     * @return the normalization
     * @throws IllegalArgumentException for no data, or tensors whose last axes differ
     */
    public static Normalization adapt(Iterable<Tensor> data) {
        long count = 0;
        double[] mean = null;
        double[] m2 = null;
        int features = -1;
        for (Tensor t : data) {
            int f = t.shape().rank() == 0 ? 1 : t.shape().dim(-1);
            if (mean == null) {
                features = f;
                mean = new double[f];
                m2 = new double[f];
            } else if (f != features) {
                throw new IllegalArgumentException("cannot adapt to tensors with " + f + " features on the last axis "
                        + "after tensors with " + features + " (shape " + t.shape() + ")");
            }
            int rows = t.size() / f;
            if (rows == 0) {
                continue;
            }
            double[] blockMean = new double[f];
            double[] blockM2 = new double[f];
            float[] d = t.data();
            for (int r = 0; r < rows; r++) {
                for (int j = 0; j < f; j++) {
                    blockMean[j] += d[t.offset() + r * f + j];
                }
            }
            for (int j = 0; j < f; j++) {
                blockMean[j] /= rows;
            }
            for (int r = 0; r < rows; r++) {
                for (int j = 0; j < f; j++) {
                    double dev = d[t.offset() + r * f + j] - blockMean[j];
                    blockM2[j] += dev * dev;
                }
            }
            long total = count + rows;
            for (int j = 0; j < f; j++) {
                double delta = blockMean[j] - mean[j];
                mean[j] += delta * rows / total;
                m2[j] += blockM2[j] + delta * delta * count * rows / total;
            }
            count = total;
        }
        if (count == 0) {
            throw new IllegalArgumentException("cannot adapt a normalization to no data");
        }
        float[] mu = new float[features];
        float[] var = new float[features];
        for (int j = 0; j < features; j++) {
            mu[j] = (float) mean[j];
            var[j] = (float) (m2[j] / count);
        }
        return new Normalization(mu, var);
    }

    /**
     * The mean of each feature.
     *
     * @return a copy of the means
     */
    public float[] mean() {
        return mean.clone();
    }

    /**
     * The variance of each feature.
     *
     * @return a copy of the variances
     */
    public float[] variance() {
        return variance.clone();
    }

    @Override
    public Tensor apply(Tensor x) {
        checkFeatures(x);
        float[] out = new float[x.size()];
        normalize(x.data(), x.offset(), out, 0, out.length);
        return Tensor.wrap(out, 0, x.shape());
    }

    @Override
    public void applyInPlace(Tensor x) {
        checkFeatures(x);
        normalize(x.data(), x.offset(), x.data(), x.offset(), x.size());
    }

    private void checkFeatures(Tensor x) {
        int f = mean.length;
        if (x.shape().rank() == 0 || x.shape().dim(-1) != f) {
            throw new IllegalArgumentException("normalization adapted to " + f + " features cannot normalize a "
                    + "tensor of shape " + x.shape() + " (its last axis must have " + f + ")");
        }
    }

    private void normalize(float[] in, int inBase, float[] out, int outBase, int n) {
        int f = mean.length;
        for (int i = 0; i < n; i++) {
            int j = i % f;
            out[outBase + i] = (in[inBase + i] - mean[j]) * scale[j];
        }
    }

    @Override
    public String toString() {
        return "Normalization(mean " + Arrays.toString(mean) + ", variance " + Arrays.toString(variance) + ")";
    }
}
