package dev.brisk.data.preprocessing;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * Keras' {@code Discretization} with {@code output_mode="int"}: each value becomes the index of its bin, an INT32
 * tensor of the same shape. With boundaries {@code b0 <= b1 <= ... <= bk}, a value below {@code b0} is in bin 0, one
 * in {@code [b(i-1), bi)} in bin {@code i}, and one at or above {@code bk} in bin {@code k + 1} (TensorFlow's
 * {@code Bucketize}: a value on a boundary goes to the bin above it). The boundaries are given
 * ({@code bin_boundaries=[...]}) or learned from data by {@link #adapt} ({@code num_bins}, {@code epsilon}) with
 * Keras' approximate quantiles. Not here: the one-hot, multi-hot and count output modes (apply
 * {@link CategoryEncoding} to the bin indexes).
 */
public final class Discretization implements UnaryOperator<Tensor> {
    /** Keras' default {@code epsilon} for {@link #adapt}. */
    public static final double DEFAULT_EPSILON = 0.01;

    private final float[] boundaries;

    /**
     * Bins split at {@code binBoundaries}.
     *
     * @param binBoundaries the boundaries, strictly increasing and finite
     */
    public Discretization(float... binBoundaries) {
        this(binBoundaries.clone(), true);
    }

    /**
     * Bins split at {@code boundaries}, owned from here: given ones must increase strictly (Keras' documented
     * contract); adapted ones may repeat where the data repeats a value (Keras keeps those empty bins).
     */
    private Discretization(float[] boundaries, boolean strictlyIncreasing) {
        for (int i = 0; i < boundaries.length; i++) {
            boolean ordered = i == 0 || (strictlyIncreasing ? boundaries[i] > boundaries[i - 1]
                    : boundaries[i] >= boundaries[i - 1]);
            if (!Float.isFinite(boundaries[i]) || !ordered) {
                throw new IllegalArgumentException("Discretization's bin boundaries must be finite and "
                        + (strictlyIncreasing ? "strictly increasing" : "non-decreasing") + ", got "
                        + Arrays.toString(boundaries));
            }
        }
        this.boundaries = boundaries;
    }

    /**
     * Bins learned from data, Keras' {@code Discretization(num_bins=numBins).adapt(data)} with the default
     * {@code epsilon} of {@value #DEFAULT_EPSILON}.
     *
     * @param data the values, one tensor per batch as Keras' {@code adapt} takes batches (any shape; INT32 or
     *     float32)
     * @param numBins the number of bins wanted, at least 1
     * @return the discretization
     */
    public static Discretization adapt(Iterable<Tensor> data, int numBins) {
        return adapt(data, numBins, DEFAULT_EPSILON);
    }

    /**
     * Bins learned from data by Keras' approximate quantiles: each batch is summarized to about
     * {@code 1 / epsilon} weighted values and merged into the summary so far, and the boundaries are the summary's
     * {@code numBins}-quantiles
     * (the same boundaries as Keras for the same batches; a different batching can move them, as in Keras). Data
     * whose summary holds fewer than {@code numBins} values gets Keras' boundaries for that case: the summarized
     * values but the largest, so {@link #bins()} can be fewer than {@code numBins}.
     *
     * @param data the values, one tensor per batch (any shape; INT32 or float32)
     * @param numBins the number of bins wanted, at least 1
     * @param epsilon the error tolerance, above 0 (smaller is more exact and keeps a larger summary)
     * @return the discretization
     * @throws IllegalArgumentException for no values, or naming a NaN or infinite value and its batch
     */
    public static Discretization adapt(Iterable<Tensor> data, int numBins, double epsilon) {
        if (numBins < 1) {
            throw new IllegalArgumentException("Discretization.adapt needs num_bins of at least 1, got " + numBins);
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("Discretization.adapt needs an epsilon above 0, got " + epsilon);
        }
        QuantileSummary summary = new QuantileSummary(epsilon);
        int batch = 0;
        for (Tensor t : data) {
            float[] values = new float[t.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = t.dtype() == DType.INT32 ? t.intAt(i) : t.get(i);
                if (!Float.isFinite(values[i])) {
                    throw new IllegalArgumentException("Discretization.adapt: value " + i + " of batch " + batch
                            + " is " + values[i] + ", which has no place among the quantiles");
                }
            }
            summary.add(values);
            batch++;
        }
        if (summary.size() == 0) {
            throw new IllegalArgumentException("Discretization.adapt got no values (" + batch + " batches)");
        }
        return new Discretization(summary.binBoundaries(numBins), false);
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
     * The bin boundaries (Keras' {@code bin_boundaries}, given or adapted).
     *
     * @return a copy, in increasing order
     */
    public float[] binBoundaries() {
        return boundaries.clone();
    }

    /**
     * @throws IllegalArgumentException naming the first NaN value, which falls in no bin
     */
    @Override
    public Tensor apply(Tensor x) {
        int[] out = new int[x.size()];
        for (int i = 0; i < out.length; i++) {
            float v = x.dtype() == DType.INT32 ? x.intAt(i) : x.get(i);
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
