package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * Keras' {@code Discretization(bin_boundaries=[...])} with {@code output_mode="int"}: each value becomes the index of
 * its bin, an INT32 tensor of the same shape. With boundaries {@code b0 < b1 < ... < bk}, a value below {@code b0}
 * is in bin 0, one in {@code [b(i-1), bi)} in bin {@code i}, and one at or above {@code bk} in bin {@code k + 1}
 * (TensorFlow's {@code Bucketize}: a value on a boundary goes to the bin above it). Not here: learning the
 * boundaries from data ({@code adapt} with {@code num_bins}, which Keras does with approximate quantiles) and the
 * one-hot, multi-hot and count output modes (apply {@link CategoryEncoding} to the bin indexes).
 */
public final class Discretization implements UnaryOperator<Tensor> {
    private final float[] boundaries;

    /**
     * Bins split at {@code binBoundaries}.
     *
     * @param binBoundaries the boundaries, strictly increasing and finite
     */
    public Discretization(float... binBoundaries) {
        for (int i = 0; i < binBoundaries.length; i++) {
            if (!Float.isFinite(binBoundaries[i]) || i > 0 && !(binBoundaries[i] > binBoundaries[i - 1])) {
                throw new IllegalArgumentException("Discretization's bin boundaries must be finite and strictly "
                        + "increasing, got " + Arrays.toString(binBoundaries));
            }
        }
        this.boundaries = binBoundaries.clone();
    }

    /**
     * The number of bins: one more than the boundaries.
     *
     * @return the bin count
     */
    public int bins() {
        return boundaries.length + 1;
    }

    /**
     * @throws IllegalArgumentException naming the first NaN value, which falls in no bin
     */
    @Override
    public Tensor apply(Tensor x) {
        int[] out = new int[x.size()];
        for (int i = 0; i < out.length; i++) {
            float v = x.get(i);
            if (Float.isNaN(v)) {
                throw new IllegalArgumentException("Discretization: value " + i + " is NaN, which falls in no bin");
            }
            // The number of boundaries at or below v: the first boundary above v is the bin.
            int lo = 0;
            int hi = boundaries.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (boundaries[mid] <= v) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            out[i] = lo;
        }
        return Tensor.ofInts(out, x.shape().dims());
    }
}
