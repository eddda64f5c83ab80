package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compiled train step replays planned buffers: once the JIT has compiled the kernels, running it allocates
 * nothing, on the calling thread or on the pool's workers. (Runs in a JVM of its own: see the POM.)
 */
class StepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    private static Model cnn() {
        RandomSeed.set(1);
        Model model = Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(4, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(32, Activation.RELU),
                Layers.dense(5));
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        return model;
    }

    /** A convolution whose 64K outputs a step normalizes: big enough for the kernels to split over two threads. */
    private static Model batchNormalizedCnn() {
        RandomSeed.set(1);
        Model model = Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(32, 3, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(5));
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        return model;
    }

    private static Tensor[] data() {
        Tensor[] xy = EagerVsCompiledTest.data(64, 10, 10, 1);
        for (int i = 0; i < xy[1].size(); i++) {
            xy[1].set(i, xy[1].get(i) % 5);
        }
        return xy;
    }

    private static Plan trainedPlan() {
        return trainedPlan(cnn());
    }

    private static Plan trainedPlan(Model model) {
        Tensor[] xy = data();
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(32).verbose(0));
        Plan plan = model.trainPlan(32);
        assertNotNull(plan);
        return plan;
    }

    /** The calling thread and the pool's workers. */
    private static long[] stepThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t == Thread.currentThread() || t.getName().startsWith("brisk-compute-"))
                .mapToLong(Thread::threadId)
                .toArray();
    }

    /**
     * The fewest bytes allocated per step over rounds of warm-up and measurement: compilation happens in the
     * background, so a round that still ran some code interpreted is not the steady state.
     */
    private static long bytesPerStep(Plan plan) {
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
    private static String allocatingInstructions(Plan plan) {
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

    /** Bytes allocated so far by these threads (read one by one: the array-returning call would allocate). */
    private static long allocated(com.sun.management.ThreadMXBean bean, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += bean.getThreadAllocatedBytes(id);
        }
        return sum;
    }

    @Test
    void compiledTrainStepAllocatesNothingOnOneThread() {
        ThreadBudget.set(1);
        Plan plan = trainedPlan();
        long perStep = bytesPerStep(plan);
        System.out.printf("compiled step, 1 thread: %d kernels, %d planned bytes, %d bytes allocated per step%n",
                plan.instructionCount(), plan.plannedFloats() * 4, perStep);
        if (perStep != 0) {
            fail("a compiled step allocated " + perStep + " bytes" + allocatingInstructions(plan));
        }
    }

    @Test
    void compiledTrainStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        Plan plan = trainedPlan();
        long perStep = bytesPerStep(plan);
        assertTrue(stepThreads().length >= 2, "the pool's workers are counted");
        System.out.printf("compiled step, 2 threads: %d bytes allocated per step (caller and workers)%n", perStep);
        if (perStep != 0) {
            ThreadBudget.set(1);
            fail("a compiled step allocated " + perStep + " bytes across the pool; on one thread:"
                    + allocatingInstructions(plan));
        }
    }

    @Test
    void batchNormalizationStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        Plan plan = trainedPlan(batchNormalizedCnn());
        long perStep = bytesPerStep(plan);
        System.out.printf("compiled step with batch normalization, 2 threads: %d bytes allocated per step%n", perStep);
        if (perStep != 0) {
            ThreadBudget.set(1);
            fail("a compiled step with batch normalization allocated " + perStep + " bytes across the pool; on one "
                    + "thread:" + allocatingInstructions(plan));
        }
    }

    @Test
    void profilingSomeStepsLeavesTheOthersAllocationFree(@TempDir Path tmp) {
        ThreadBudget.set(1);
        Model model = cnn();
        Tensor[] xy = data();
        model.fit(xy[0], xy[1], Fit.epochs(2).batchSize(32).verbose(0).profile(tmp.resolve("t.json"), 2, 3));
        assertNotNull(model.lastProfile());
        long perStep = bytesPerStep(model.trainPlan(32));
        if (perStep != 0) {
            fail("after a profiled fit, an unprofiled step allocated " + perStep + " bytes"
                    + allocatingInstructions(model.trainPlan(32)));
        }
    }
}
