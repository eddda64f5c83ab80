package dev.brisk.callbacks;

/** What one epoch cost: samples trained, wall seconds, process CPU seconds. */
public record EpochStats(long samples, double wallSeconds, double cpuSeconds) {
    public double samplesPerSecond() {
        return wallSeconds > 0 ? samples / wallSeconds : 0;
    }

    /** Process CPU time over wall time: 2.0 means two cores kept busy. */
    public double cpuUtilisation() {
        return wallSeconds > 0 ? cpuSeconds / wallSeconds : 0;
    }
}
