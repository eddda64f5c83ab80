package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.KernelTimer;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeline records only the steps its profiler covers, and costs no allocation when there is none. */
class StepTimelineTest {
    /** Runs one step through the timeline; returns the kernel timer it handed out. */
    private static KernelTimer step(StepTimeline t, int globalStep) {
        t.beginStep(globalStep);
        t.batchReady();
        KernelTimer timer = t.kernelTimer();
        t.phaseEnd(Phase.CALLBACKS);
        t.phaseEnd(Phase.COMPUTE);
        t.phaseEnd(Phase.METRICS);
        t.phaseEnd(Phase.CALLBACKS);
        t.endStep();
        return timer;
    }

    @Test
    void recordsThePhasesOfCoveredStepsOnly() {
        Profiler p = new Profiler(new ProfileWindow(2, 3), 2, "compiled");
        StepTimeline t = new StepTimeline(p);
        for (int s = 1; s <= 4; s++) {
            assertEquals(s == 2 || s == 3, step(t, s) == p, "timer handed out only in steps 2-3");
        }
        t.beginStep(5); // the epoch ended before step 5 got a batch: nothing is recorded for it
        Profile profile = p.finish();
        assertEquals(List.of(2, 3), profile.steps());
        for (int step = 2; step <= 3; step++) {
            int n = step;
            List<String> names = profile.spans().stream().filter(sp -> sp.step() == n).map(Span::name).sorted()
                    .toList();
            assertEquals(List.of("callbacks", "callbacks", "input wait", "metrics", "step " + n, "train step"), names);
        }
        for (Span s : profile.spans()) {
            assertTrue(s.nanos() >= 0, s.toString());
        }
        assertEquals(0, profile.total(Span.Category.KERNEL));
    }

    @Test
    void withoutAProfilerOnlyInputWaitIsMeasuredAndNothingIsAllocated() {
        StepTimeline t = new StepTimeline(null);
        for (int s = 1; s <= 20_000; s++) { // warm up the JIT
            assertNull(step(t, s));
        }
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = bean.getThreadAllocatedBytes(tid);
        for (int s = 1; s <= 10_000; s++) {
            step(t, s);
        }
        long allocated = bean.getThreadAllocatedBytes(tid) - before;
        assertTrue(allocated < 1024, "10,000 unprofiled steps allocated " + allocated + " bytes");
        assertTrue(t.takeInputWaitNanos() >= 0);
        assertEquals(0, t.takeInputWaitNanos(), "taking the wait starts the count afresh");
    }
}
