package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.backend.KernelTimer;
import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.ops.Node;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * How many bytes a compiled step allocates, for the step-allocation tests: the fewest per step over rounds of
 * warm-up and measurement on the calling thread and the compute pool's, and which instructions allocated.
 */
final class PlanAllocation {
    private static final com.sun.management.ThreadMXBean BEAN =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private PlanAllocation() {
    }

    /** Compiles {@code model} as the step-allocation tests train: Adam, sparse cross-entropy from logits. */
    static Model compiled(Model model) {
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        return model;
    }

    /**
     * Fits a compiled model one epoch on {@code xy} in batches of {@code rows}, then asserts that its train step
     * for that batch allocates nothing (see {@link #assertAllocatesNothing}).
     */
    static void assertStepAllocatesNothing(Model model, Tensor[] xy, int rows, String step) {
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(rows).verbose(0));
        assertAllocatesNothing(model.trainPlan(rows), step);
    }

    /**
     * Asserts that a step of {@code plan} allocates nothing at the current thread budget, counting the calling
     * thread and the pool's workers, and prints what it measured; a failure names the instructions that allocated.
     */
    static void assertAllocatesNothing(Plan plan, String step) {
        assertNotNull(plan, "a train plan for " + step);
        long perStep = bytesPerStep(plan);
        int threads = ThreadBudget.threads();
        System.out.printf("%s, %d thread(s): %d kernels, %d planned bytes, %d bytes allocated per step%n", step,
                threads, plan.instructionCount(), plan.plannedFloats() * 4, perStep);
        if (perStep != 0) {
            fail("a compiled " + step + " allocated " + perStep + " bytes per step at " + threads + " thread(s)"
                    + allocatingInstructions(plan));
        }
    }

    /**
     * Bytes allocated so far by these threads (read one by one: the array-returning call would allocate); a thread
     * that has ended reads as nothing.
     */
    static long allocated(long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += Math.max(0, BEAN.getThreadAllocatedBytes(id));
        }
        return sum;
    }

    /** The calling thread and the compute pool's workers. */
    static long[] stepThreads() {
        return threads("brisk-compute-");
    }

    /** The calling thread and every thread whose name starts with {@code prefix}. */
    static long[] threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t == Thread.currentThread() || t.getName().startsWith(prefix))
                .mapToLong(Thread::threadId)
                .toArray();
    }

    /**
     * The fewest bytes allocated per step over rounds of warm-up and measurement: compilation happens in the
     * background, so a round that still ran some code interpreted is not the steady state.
     */
    static long bytesPerStep(Plan plan) {
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 30 && best > 0; round++) {
            for (int i = 0; i < 500; i++) {
                plan.run();
            }
            long[] ids = stepThreads();
            long before = allocated(ids);
            int steps = 50;
            for (int i = 0; i < steps; i++) {
                plan.run();
            }
            long after = allocated(ids);
            best = Math.min(best, (after - before) / steps);
        }
        return best;
    }

    /**
     * For a failure message: the instructions that allocated over some steps, each with its bytes per step, counting
     * the calling thread and the pool's workers (a kernel split over the pool, or a group of instructions run side by
     * side, may allocate on a worker). A group's bytes are known only once the whole group has finished, so they
     * stand under its first member. Allocation by C2-compiled vector code comes from boxed vectors where an inlining
     * limit was hit, so naming the kernel is most of the diagnosis.
     */
    static String allocatingInstructions(Plan plan) {
        List<Node> nodes = plan.instructionNodes();
        long[] bytes = new long[nodes.size()];
        long[] ids = stepThreads();
        long[] last = new long[1];
        KernelTimer timer = (node, start, end) -> {
            long now = allocated(ids);
            bytes[nodes.indexOf(node)] += now - last[0];
            last[0] = now;
        };
        int steps = 50;
        for (int i = 0; i < steps; i++) {
            last[0] = allocated(ids);
            plan.run(timer);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] >= steps) {
                out.append("\n  ").append(nodes.get(i)).append(": ").append(bytes[i] / steps).append(" bytes per step");
            }
        }
        return out.length() == 0 ? " (no single instruction allocated: the bytes fell between kernel calls)"
                : out.toString();
    }
}
