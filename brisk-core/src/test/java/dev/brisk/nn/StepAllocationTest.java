package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A compiled train step replays planned buffers: running it allocates (next to) nothing. */
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

    private static Tensor[] data() {
        Tensor[] xy = EagerVsCompiledTest.data(64, 10, 10, 1);
        for (int i = 0; i < xy[1].size(); i++) {
            xy[1].set(i, xy[1].get(i) % 5);
        }
        return xy;
    }

    /** Bytes this thread allocates per {@link Plan#run()} once the JIT has settled. */
    private static long allocatedPerStep(Plan plan) {
        for (int i = 0; i < 2000; i++) {
            plan.run(); // warm up the JIT so escape analysis settles
        }
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        int steps = 50;
        long before = bean.getThreadAllocatedBytes(tid);
        for (int i = 0; i < steps; i++) {
            plan.run();
        }
        return (bean.getThreadAllocatedBytes(tid) - before) / steps;
    }

    @Test
    void compiledTrainStepDoesNotAllocatePerOp() {
        ThreadBudget.set(1); // everything on this thread, so its allocation counter sees it all
        Model model = cnn();
        Tensor[] xy = data();
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(32).verbose(0));
        Plan plan = model.trainPlan(32);
        assertNotNull(plan);
        long perStep = allocatedPerStep(plan);
        long activationBytes = plan.plannedFloats() * 4;
        System.out.printf("compiled step: %d kernels, %d planned bytes, %d bytes allocated per step%n",
                plan.instructionCount(), activationBytes, perStep);
        assertTrue(perStep < 64L * plan.instructionCount(),
                "a compiled step allocated " + perStep + " bytes for " + plan.instructionCount() + " kernels");
    }

    @Test
    void profilingSomeStepsLeavesTheOthersAllocationFree(@TempDir Path tmp) {
        ThreadBudget.set(1);
        Model model = cnn();
        Tensor[] xy = data();
        model.fit(xy[0], xy[1], Fit.epochs(2).batchSize(32).verbose(0).profile(tmp.resolve("t.json"), 2, 3));
        assertNotNull(model.lastProfile());
        Plan plan = model.trainPlan(32);
        long perStep = allocatedPerStep(plan);
        assertTrue(perStep < 64L * plan.instructionCount(),
                "after a profiled fit, an unprofiled step allocated " + perStep + " bytes");
    }
}
