package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.backend.KernelTimer;
import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Node;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A compiled train step of a model of the three recurrent layers allocates nothing once the JIT has compiled its
 * kernels, on the calling thread or the pool's workers: their state, scratch and per-step products all lie in
 * planned buffers. The units are whole vectors, as in the reference workload; a SimpleRNN of 8 units (half a
 * 512-bit vector) was seen to box vectors in its tanh pass, which is left open. (Runs in a JVM of its own, as
 * every {@code *AllocationTest}: see the POM.)
 */
class RecurrentStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    private static long allocated(com.sun.management.ThreadMXBean bean, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += bean.getThreadAllocatedBytes(id);
        }
        return sum;
    }

    /** The fewest bytes per step over rounds of warm-up and measurement (the steady state, once compiled). */
    private static long bytesPerStep(Plan plan) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 30 && best > 0; round++) {
            for (int i = 0; i < 300; i++) {
                plan.run();
            }
            long[] ids = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t == Thread.currentThread() || t.getName().startsWith("brisk-compute-"))
                    .mapToLong(Thread::threadId)
                    .toArray();
            long before = allocated(bean, ids);
            int steps = 50;
            for (int i = 0; i < steps; i++) {
                plan.run();
            }
            best = Math.min(best, (allocated(bean, ids) - before) / steps);
        }
        return best;
    }

    /** For a failure message: the instructions that allocated on the calling thread, with their bytes per step. */
    private static String byInstruction(Plan plan) {
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
        return out.toString();
    }

    @Test
    void recurrentTrainStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        RandomSeed.set(1);
        Model model = Sequential.of(
                Layers.input(6, 5),
                Layers.simpleRnn(16, true, true),
                Layers.lstm(32, true, false),
                Layers.gru(16),
                Layers.dense(3));
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = EagerVsCompiledTest.data(64, 6, 5);
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(32).verbose(0));
        Plan plan = model.trainPlan(32);
        assertNotNull(plan);
        long perStep = bytesPerStep(plan);
        System.out.printf("compiled recurrent step, 2 threads: %d bytes allocated per step%n", perStep);
        if (perStep != 0) {
            ThreadBudget.set(1);
            fail("a compiled recurrent step allocated " + perStep + " bytes; on one thread:" + byInstruction(plan));
        }
    }
}
