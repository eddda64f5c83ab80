package dev.brisk.cli;

import dev.brisk.callbacks.Callback;
import dev.brisk.profile.StepStalls;
import java.util.Arrays;
import java.util.Map;

/**
 * A callback that times every training step of a fit, end of one batch to end of the next (host work between
 * steps included, as samples/s counts it), into an array made once. Its median says what a step costs when
 * nothing interrupts it; its stalls, how much of the time went to steps far slower than that.
 *
 * <p>On a 2-vCPU VM the two halves of a {@code brisk scaling} pair differ here: on one thread steps hardly vary,
 * while on two a step waits whenever either vCPU is taken away (by the hypervisor, the JIT or another process), and
 * its slowest steps took 2-7 times the median (docs/benchmark-log.md, "Where the 2-thread time goes: stalls").
 */
final class StepClock extends Callback {
    private final long[] nanos;
    private int count;
    private long last;

    /** A clock for up to {@code steps} steps; further steps are not timed. */
    StepClock(int steps) {
        nanos = new long[steps];
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        last = System.nanoTime();
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        long now = System.nanoTime();
        if (count < nanos.length) {
            nanos[count++] = now - last;
        }
        last = now;
    }

    /** Forgets the steps timed so far, for another fit. */
    void reset() {
        count = 0;
    }

    /** The median step in nanoseconds, or NaN before any step. */
    double medianNanos() {
        return StepStalls.median(Arrays.copyOf(nanos, count));
    }

    /** The share of all timed step time spent beyond {@link StepStalls#FACTOR} times the median step (0 to 1). */
    double stallShare() {
        return StepStalls.share(Arrays.copyOf(nanos, count));
    }
}
