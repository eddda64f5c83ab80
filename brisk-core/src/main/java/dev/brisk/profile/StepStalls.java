package dev.brisk.profile;

import java.util.Arrays;

/**
 * How much of a run of training steps went to steps far slower than their median: a step that waits for a core
 * taken away by the hypervisor, the JIT compiler, the collector or another process. With a compute thread on every
 * core one such wait holds up the whole step, so the share says when fewer threads would train faster
 * (BENCHMARKS.md, "Sixteen cores").
 */
public final class StepStalls {
    /** A step counts as stalled beyond this multiple of the median step. */
    public static final double FACTOR = 1.5;

    private StepStalls() {
    }

    /**
     * The median of {@code steps} (nanoseconds), or NaN for none.
     *
     * @param steps step times in nanoseconds
     * @return the median step time in nanoseconds
     */
    public static double median(long[] steps) {
        if (steps.length == 0) {
            return Double.NaN;
        }
        long[] sorted = steps.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /**
     * The share of all step time spent beyond {@link #FACTOR} times the median step (0 to 1).
     *
     * @param steps step times in nanoseconds
     * @return the share of time beyond the threshold, from 0 to 1 (0 for no steps)
     */
    public static double share(long[] steps) {
        double limit = FACTOR * median(steps);
        double total = 0;
        double beyond = 0;
        for (long s : steps) {
            total += s;
            beyond += Math.max(0, s - limit);
        }
        return total == 0 ? 0 : beyond / total;
    }

    /**
     * How many of {@code steps} took longer than {@link #FACTOR} times the median.
     *
     * @param steps step times in nanoseconds
     * @return the number of stalled steps
     */
    public static int count(long[] steps) {
        double limit = FACTOR * median(steps);
        int n = 0;
        for (long s : steps) {
            if (s > limit) {
                n++;
            }
        }
        return n;
    }
}
