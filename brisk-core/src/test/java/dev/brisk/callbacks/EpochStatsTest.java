package dev.brisk.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The per-epoch figures: throughput, CPU utilisation of the thread budget, busy cores, input-wait share. */
class EpochStatsTest {
    @Test
    void utilisationIsCpuOverWallTimesThreads() {
        EpochStats s = new EpochStats(1000, 2.0, 3.0, 0.5, 2);
        assertEquals(500, s.samplesPerSecond());
        assertEquals(0.75, s.cpuUtilisation(), "3 CPU-seconds of 2 threads x 2 s");
        assertEquals(1.5, s.coresBusy());
        assertEquals(0.25, s.inputWaitShare());
    }

    @Test
    void anEmptyEpochReportsZeros() {
        EpochStats s = new EpochStats(0, 0, 0, 0, 4);
        assertEquals(0, s.samplesPerSecond());
        assertEquals(0, s.cpuUtilisation());
        assertEquals(0, s.coresBusy());
        assertEquals(0, s.inputWaitShare());
    }
}
