package dev.brisk.callbacks;

/**
 * What one epoch of training cost: samples trained, wall seconds, process CPU seconds (all threads), seconds the
 * training loop waited for its next batch, and the thread budget it ran with.
 *
 * @param samples samples trained in the epoch
 * @param wallSeconds wall time of the epoch's training, in seconds
 * @param cpuSeconds process CPU time, all threads, in seconds
 * @param inputWaitSeconds time the training loop waited for its next batch, in seconds
 * @param threads the thread budget
 */
public record EpochStats(long samples, double wallSeconds, double cpuSeconds, double inputWaitSeconds,
                         int threads) {
    /**
     * Training throughput.
     *
     * @return samples per wall second, 0 when no time was measured
     */
    public double samplesPerSecond() {
        return wallSeconds > 0 ? samples / wallSeconds : 0;
    }

    /**
     * Process CPU time / (wall time x thread budget), History's {@code cpu_util}: 1.0 means every thread of the
     * budget was busy the whole epoch.
     *
     * @return the utilisation, from 0 to 1
     */
    public double cpuUtilisation() {
        return wallSeconds > 0 && threads > 0 ? cpuSeconds / (wallSeconds * threads) : 0;
    }

    /**
     * Process CPU time / wall time, the busy cores: 2.0 means two cores kept busy (the RESULT line's figure).
     *
     * @return CPU seconds per wall second
     */
    public double coresBusy() {
        return wallSeconds > 0 ? cpuSeconds / wallSeconds : 0;
    }

    /**
     * The share of the epoch's training time spent waiting for input, History's {@code input_wait}.
     *
     * @return the share, from 0 to 1
     */
    public double inputWaitShare() {
        return wallSeconds > 0 ? inputWaitSeconds / wallSeconds : 0;
    }
}
