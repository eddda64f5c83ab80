package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The median step and the share of time beyond one and a half medians, and the JIT compilers' share of the steps, from
 * made-up step times.
 */
class StepStallsTest {
    @Test
    void theMedianOfOddAndEvenCounts() {
        assertEquals(20, StepStalls.median(new long[] {30, 10, 20}));
        assertEquals(25, StepStalls.median(new long[] {40, 10, 30, 20}));
        assertTrue(Double.isNaN(StepStalls.median(new long[0])));
    }

    @Test
    void stallsAreTheTimeBeyondOneAndAHalfMedians() {
        // Median 100: the limit is 150, so the 400 step stalled 250 of the 1,000 in all; the 140 step did not stall.
        long[] steps = {100, 100, 140, 100, 100, 60, 400};
        assertEquals(0.25, StepStalls.share(steps), 1e-12);
        assertEquals(1, StepStalls.count(steps));
        assertEquals(0, StepStalls.share(new long[] {100, 100, 100}));
        assertEquals(0, StepStalls.count(new long[] {100, 100, 100}));
        assertEquals(0, StepStalls.share(new long[0]));
    }

    @Test
    void theProfileSummaryCountsSlowStepsAndSuggestsAThreadFewer() {
        Profile quiet = profileOf(new long[] {100, 100, 110, 100}, 4);
        assertTrue(quiet.summary().contains("slow steps       0 of 4 over 1.5x the median step (0.100 ms), 0.0%"),
                quiet.summary());
        assertTrue(!quiet.summary().contains("--threads"), quiet.summary());
        int everyCore = Math.max(4, Runtime.getRuntime().availableProcessors());
        Profile stalled = profileOf(new long[] {100, 100, 400, 100}, everyCore);
        assertTrue(stalled.summary().contains("slow steps       1 of 4 over 1.5x the median step (0.100 ms), 35.7%"),
                stalled.summary());
        assertTrue(stalled.summary().contains("(--threads " + (everyCore - 1) + ")"), stalled.summary());
        Profile twoThreads = profileOf(new long[] {100, 100, 400, 100}, 2);
        assertTrue(!twoThreads.summary().contains("--threads"), twoThreads.summary());
    }

    /**
     * The JIT compilers' time during the steps, as a share of one core over their wall time, and from a tenth of a
     * core a line saying the steps profiled warm-up.
     */
    @Test
    void theProfileSummarySaysWhenTheJitSharedTheSteps() {
        // Four steps of 10 ms: 40 ms of wall time.
        long[] tenMillis = {10_000, 10_000, 10_000, 10_000};
        Profile warm = profileOf(tenMillis, 2, 2);
        assertTrue(warm.summary().contains("JIT compilers    2 ms during the profiled steps, 5% of one core"),
                warm.summary());
        assertTrue(!warm.summary().contains("still warming up"), warm.summary());
        Profile compiling = profileOf(tenMillis, 2, 20);
        assertTrue(compiling.summary().contains("JIT compilers    20 ms during the profiled steps, 50% of one core"),
                compiling.summary());
        assertTrue(compiling.summary().contains("still warming up"), compiling.summary());
        assertTrue(!profileOf(tenMillis, 2, -1).summary().contains("JIT compilers"));
    }

    /** A profile of steps of the given lengths (microseconds), one after another, on {@code threads} threads. */
    private static Profile profileOf(long[] micros, int threads) {
        return profileOf(micros, threads, 0);
    }

    /** {@link #profileOf(long[], int)} with {@code jitMillis} of the compilers' time during the steps. */
    private static Profile profileOf(long[] micros, int threads, long jitMillis) {
        java.util.List<Span> spans = new java.util.ArrayList<>();
        java.util.List<Integer> steps = new java.util.ArrayList<>();
        long t = 0;
        for (int i = 0; i < micros.length; i++) {
            long end = t + micros[i] * 1000;
            spans.add(new Span("step " + (i + 1), Span.Category.STEP, i + 1, t, end, null));
            steps.add(i + 1);
            t = end;
        }
        return new Profile(spans, steps, t * threads, jitMillis, threads, "compiled", 1, 1);
    }
}
