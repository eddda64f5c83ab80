package dev.brisk.nn;

import dev.brisk.backend.KernelTimer;
import dev.brisk.exec.Plan;
import dev.brisk.ops.Node;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * How many bytes a compiled step allocates, for the step-allocation tests: the fewest per step over rounds of
 * warm-up and measurement on the calling thread and the compute pool's, and which instructions allocated.
 */
final class PlanAllocation {
    private PlanAllocation() {
    }

    /** Bytes allocated so far by these threads (read one by one: the array-returning call would allocate). */
    static long allocated(com.sun.management.ThreadMXBean bean, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += bean.getThreadAllocatedBytes(id);
        }
        return sum;
    }

    /** The calling thread and the pool's workers. */
    static long[] stepThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t == Thread.currentThread() || t.getName().startsWith("brisk-compute-"))
                .mapToLong(Thread::threadId)
                .toArray();
    }

    /**
     * The fewest bytes allocated per step over rounds of warm-up and measurement: compilation happens in the
     * background, so a round that still ran some code interpreted is not the steady state.
     */
    static long bytesPerStep(Plan plan) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 30 && best > 0; round++) {
            for (int i = 0; i < 500; i++) {
                plan.run();
            }
            long[] ids = stepThreads();
            long before = allocated(bean, ids);
            int steps = 50;
            for (int i = 0; i < steps; i++) {
                plan.run();
            }
            long after = allocated(bean, ids);
            best = Math.min(best, (after - before) / steps);
        }
        return best;
    }

    /**
     * For a failure message: the instructions that allocated on the calling thread over some steps, each with its
     * bytes per step. Allocation by C2-compiled vector code comes from boxed vectors where an inlining limit was
     * hit, so naming the kernel is most of the diagnosis.
     */
    static String allocatingInstructions(Plan plan) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Node> nodes = plan.instructionNodes();
        long[] bytes = new long[nodes.size()];
        long[] last = new long[1];
        KernelTimer timer = (node, start, end) -> {
            long now = bean.getCurrentThreadAllocatedBytes();
            bytes[nodes.indexOf(node)] += now - last[0];
            last[0] = now;
        };
        int steps = 50;
        for (int i = 0; i < steps; i++) {
            last[0] = bean.getCurrentThreadAllocatedBytes();
            plan.run(timer);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] >= steps) {
                out.append("\n  ").append(nodes.get(i)).append(": ").append(bytes[i] / steps).append(" bytes per step");
            }
        }
        return out.length() == 0 ? " (no single instruction allocated on the calling thread)" : out.toString();
    }
}
