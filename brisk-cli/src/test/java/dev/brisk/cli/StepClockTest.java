package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The step clock's median and stall share, from made-up step times and from a clock driven by hand. */
class StepClockTest {
    @Test
    void theMedianOfOddAndEvenCounts() {
        assertEquals(20, StepClock.median(new long[] {30, 10, 20}));
        assertEquals(25, StepClock.median(new long[] {40, 10, 30, 20}));
        assertTrue(Double.isNaN(StepClock.median(new long[0])));
    }

    @Test
    void stallsAreTheTimeBeyondOneAndAHalfMedians() {
        // Median 100: the limit is 150, so the 400 step stalled 250 of the 1,000 in all; the 140 step did not stall.
        assertEquals(0.25, StepClock.stallShare(new long[] {100, 100, 140, 100, 100, 60, 400}), 1e-12);
        assertEquals(0, StepClock.stallShare(new long[] {100, 100, 100}));
        assertEquals(0, StepClock.stallShare(new long[0]));
    }

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
