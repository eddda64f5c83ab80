package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The step clock driven by hand (the arithmetic of medians and stalls: {@code StepStallsTest} in brisk-core). */
class StepClockTest {
    @Test
    void timesEachBatchFromTheLastAndStopsWhenFull() throws InterruptedException {
        StepClock clock = new StepClock(2);
        clock.onEpochBegin(0, Map.of());
        Thread.sleep(20);
        clock.onTrainBatchEnd(0, Map.of());
        Thread.sleep(20);
        clock.onTrainBatchEnd(1, Map.of());
        clock.onTrainBatchEnd(2, Map.of()); // beyond the clock's two steps: not timed
        assertTrue(clock.medianNanos() >= 20e6, "median " + clock.medianNanos());
        clock.reset();
        assertTrue(Double.isNaN(clock.medianNanos()));
    }
}
