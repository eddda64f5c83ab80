package dev.brisk.io.tensorboard;

import dev.brisk.tensor.Tensor;
import java.util.Arrays;

/**
 * A histogram of values as TensorBoard's {@code HistogramProto} holds it: count, sum, sum of squares, min, max, and
 * buckets given by their right edges ({@code bucketLimits}) and counts. Brisk uses equal-width buckets between the
 * minimum and the maximum (30 by default, as {@code tf.summary.histogram}); TensorBoard takes the left edge of the
 * first bucket from {@code min} and the right edge of the last from {@code max}. Non-finite values (NaN, infinities)
 * are left out of every figure: {@code TerminateOnNaN} is the tool for those.
 */
public final class Histogram {
    /** Buckets per histogram when none is given (as TensorFlow's summary histograms). */
    public static final int DEFAULT_BUCKETS = 30;

    private final double min;
    private final double max;
    private final long count;
    private final double sum;
    private final double sumSquares;
    private final double[] bucketLimits;
    private final double[] bucketCounts;

    private Histogram(double min, double max, long count, double sum, double sumSquares, double[] bucketLimits,
                      double[] bucketCounts) {
        this.min = min;
        this.max = max;
        this.count = count;
        this.sum = sum;
        this.sumSquares = sumSquares;
        this.bucketLimits = bucketLimits;
        this.bucketCounts = bucketCounts;
    }

    /**
     * The histogram of a tensor's values in {@link #DEFAULT_BUCKETS} buckets.
     *
     * @param t the tensor; non-finite values are left out
     * @return the histogram
     */
    public static Histogram of(Tensor t) {
        return of(t.data(), t.offset(), t.size(), DEFAULT_BUCKETS);
    }

    /**
     * The histogram of {@code values[offset, offset + length)} in {@code buckets} equal-width buckets.
     *
     * @param values the array holding the values
     * @param offset index of the first value
     * @param length the number of values
     * @param buckets the number of buckets, at least 1
     * @return the histogram
     */
    public static Histogram of(float[] values, int offset, int length, int buckets) {
        if (buckets < 1) {
            throw new IllegalArgumentException("a histogram needs at least one bucket, got " + buckets);
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        long n = 0;
        double sum = 0;
        double sumSq = 0;
        for (int i = offset; i < offset + length; i++) {
            float v = values[i];
            if (!Float.isFinite(v)) {
                continue;
            }
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
            n++;
            sum += v;
            sumSq += (double) v * v;
        }
        if (n == 0) { // one empty bucket: TensorBoard needs at least one
            return new Histogram(0, 0, 0, 0, 0, new double[] {0}, new double[] {0});
        }
        if (lo == hi) { // all values equal: one bucket of zero width
            return new Histogram(lo, hi, n, sum, sumSq, new double[] {hi}, new double[] {n});
        }
        double width = (hi - lo) / buckets;
        double[] limits = new double[buckets];
        for (int b = 0; b < buckets; b++) {
            limits[b] = lo + (b + 1) * width;
        }
        limits[buckets - 1] = hi;
        double[] counts = new double[buckets];
        for (int i = offset; i < offset + length; i++) {
            float v = values[i];
            if (Float.isFinite(v)) {
                counts[Math.min(buckets - 1, (int) ((v - lo) / width))]++;
            }
        }
        return new Histogram(lo, hi, n, sum, sumSq, limits, counts);
    }

    /**
     * The smallest finite value (0 for an empty histogram).
     *
     * @return the minimum
     */
    public double min() {
        return min;
    }

    /**
     * The largest finite value (0 for an empty histogram).
     *
     * @return the maximum
     */
    public double max() {
        return max;
    }

    /**
     * How many (finite) values the histogram holds.
     *
     * @return the number of finite values
     */
    public long count() {
        return count;
    }

    /**
     * The sum of the values, for TensorBoard's mean.
     *
     * @return the sum
     */
    public double sum() {
        return sum;
    }

    /**
     * The sum of the squared values, for TensorBoard's standard deviation.
     *
     * @return the sum of squares
     */
    public double sumSquares() {
        return sumSquares;
    }

    /**
     * The right edge of each bucket.
     *
     * @return one right edge per bucket, ascending; a copy
     */
    public double[] bucketLimits() {
        return bucketLimits.clone();
    }

    /**
     * The number of values in each bucket.
     *
     * @return one count per bucket (doubles, as TensorBoard stores them); a copy
     */
    public double[] bucketCounts() {
        return bucketCounts.clone();
    }

    /** The {@code HistogramProto} message. */
    ProtoWriter toProto() {
        return new ProtoWriter()
                .doubleField(1, min)
                .doubleField(2, max)
                .doubleField(3, count)
                .doubleField(4, sum)
                .doubleField(5, sumSquares)
                .packedDoubles(6, bucketLimits)
                .packedDoubles(7, bucketCounts);
    }

    @Override
    public String toString() {
        return "Histogram[count=" + count + ", min=" + min + ", max=" + max + ", buckets="
                + Arrays.toString(bucketCounts) + "]";
    }
}
