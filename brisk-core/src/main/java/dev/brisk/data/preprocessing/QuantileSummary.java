package dev.brisk.data.preprocessing;

import java.util.Arrays;

/**
 * Keras 3's approximate quantiles for {@code Discretization.adapt}, step for step ({@code summarize},
 * {@code merge_summaries}, {@code compress_summary} and {@code get_bin_boundaries} in Keras'
 * {@code discretization.py}), in the same float32 and float64 arithmetic, so the boundaries are Keras' own.
 *
 * <p>A summary is a sorted list of values with a weight each (how many data values it stands for). Each batch is
 * summarized by every {@code step}-th sorted value (step {@code max(n * epsilon, 1)}), merged with the summary so
 * far and compressed to about {@code 1 / epsilon} values by interpolating the cumulative weights; the boundaries are
 * the summary compressed to {@code numBins} values, the last dropped. One rule of Keras' kept here: a summary of
 * fewer than {@code numBins} values is not compressed, so its values (all but the last) are the boundaries, and
 * repeated data values can give repeated boundaries (empty bins).
 *
 * <p>Keras sorts a merged summary with NumPy's unstable sort; equal values from different batches may therefore
 * come in another order there, which can move a weight's last float32 bit (never a boundary of a single batch).
 */
final class QuantileSummary {
    private float[] values = new float[0];
    private float[] weights = new float[0];
    private final double epsilon;

    /**
     * An empty summary.
     *
     * @param epsilon Keras' {@code epsilon}, the relative error tolerance
     */
    QuantileSummary(double epsilon) {
        this.epsilon = epsilon;
    }

    /** Keras' {@code update_state}: summarizes one batch and merges it in. */
    void add(float[] batch) {
        float[] sorted = batch.clone();
        Arrays.sort(sorted);
        double increment = sorted.length / (1.0 / epsilon);
        double step = Math.max(increment, 1);
        int start = (int) (step - 1);
        int stride = (int) step;
        int count = sorted.length <= start ? 0 : (sorted.length - 1 - start) / stride + 1;
        float[] newValues = new float[count];
        float[] newWeights = new float[count];
        for (int i = 0; i < count; i++) {
            newValues[i] = sorted[start + i * stride];
            newWeights[i] = (float) step;
        }
        // np.concatenate((new, old)) then argsort by value: a stable merge keeps the new batch's entries first.
        int n = newValues.length + values.length;
        Integer[] order = new Integer[n];
        float[] allValues = new float[n];
        float[] allWeights = new float[n];
        System.arraycopy(newValues, 0, allValues, 0, newValues.length);
        System.arraycopy(values, 0, allValues, newValues.length, values.length);
        System.arraycopy(newWeights, 0, allWeights, 0, newWeights.length);
        System.arraycopy(weights, 0, allWeights, newWeights.length, weights.length);
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Float.compare(allValues[a], allValues[b]));
        values = new float[n];
        weights = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = allValues[order[i]];
            weights[i] = allWeights[order[i]];
        }
        compress(epsilon);
    }

    /** The number of values summarized so far (the summary's size, not the data's). */
    int size() {
        return values.length;
    }

    /**
     * Keras' {@code get_bin_boundaries(summary, num_bins)}: the summary compressed to {@code numBins} values, all but
     * the last.
     */
    float[] binBoundaries(int numBins) {
        QuantileSummary copy = new QuantileSummary(epsilon);
        copy.values = values;
        copy.weights = weights;
        copy.compress(1.0 / numBins);
        return Arrays.copyOf(copy.values, Math.max(copy.values.length - 1, 0));
    }

    /**
     * Keras' {@code compress_summary}: unless it is already small ({@code size * eps < 1}), replaces the summary by
     * the values and weights interpolated at the cumulative-weight fractions {@code eps, 2 eps, ...}.
     */
    private void compress(double eps) {
        if (values.length * eps < 1) {
            return;
        }
        // np.arange(0.0, 1.0, eps) has ceil(1 / eps) entries i * eps; Keras adds eps to each.
        int count = (int) Math.ceil(1.0 / eps);
        double[] percents = new double[count];
        for (int i = 0; i < count; i++) {
            percents[i] = eps + i * eps;
        }
        // Cumulative weights in float32, as NumPy's cumsum of a float32 array, and their fractions of the total.
        float[] cumulative = new float[weights.length];
        float sum = 0f;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            cumulative[i] = sum;
        }
        double[] fractions = new double[cumulative.length];
        double[] cumulativeWide = new double[cumulative.length];
        double[] valuesWide = new double[values.length];
        for (int i = 0; i < cumulative.length; i++) {
            fractions[i] = cumulative[i] / cumulative[cumulative.length - 1];
            cumulativeWide[i] = cumulative[i];
            valuesWide[i] = values[i];
        }
        float[] newValues = new float[count];
        float[] newWeights = new float[count];
        double previous = 0;
        for (int i = 0; i < count; i++) {
            newValues[i] = (float) interp(percents[i], fractions, valuesWide);
            double c = interp(percents[i], fractions, cumulativeWide);
            newWeights[i] = (float) (c - previous);
            previous = c;
        }
        values = newValues;
        weights = newWeights;
    }

    /**
     * NumPy's {@code np.interp(x, xp, fp)} for increasing {@code xp}: the ends outside the range, {@code fp[j]} where
     * {@code x == xp[j]}, else {@code slope * (x - xp[j]) + fp[j]} with {@code j} the last index with
     * {@code xp[j] <= x}.
     */
    static double interp(double x, double[] xp, double[] fp) {
        int last = xp.length - 1;
        if (x > xp[last]) {
            return fp[last];
        }
        if (x < xp[0]) {
            return fp[0];
        }
        int lo = 0;
        int hi = xp.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (x >= xp[mid]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int j = lo - 1;
        if (j == last || xp[j] == x) {
            return fp[j];
        }
        double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
        return slope * (x - xp[j]) + fp[j];
    }
}
