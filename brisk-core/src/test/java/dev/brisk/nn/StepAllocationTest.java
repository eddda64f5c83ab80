package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
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

    /**
     * Silu and hard silu, whose elementwise ops (and their gradients') run as general elementwise chains; the
     * convolution's 64K outputs a step are enough to split over two threads.
     */
    private static Model siluCnn() {
        RandomSeed.set(1);
        Model model = Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(32, 3, Activation.SILU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(16, Activation.HARD_SILU),
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

    @Test
    void compiledTrainStepAllocatesNothingOnOneThread() {
        ThreadBudget.set(1);
        Plan plan = trainedPlan();
        long perStep = PlanAllocation.bytesPerStep(plan);
        System.out.printf("compiled step, 1 thread: %d kernels, %d planned bytes, %d bytes allocated per step%n",
                plan.instructionCount(), plan.plannedFloats() * 4, perStep);
        if (perStep != 0) {
            fail("a compiled step allocated " + perStep + " bytes" + PlanAllocation.allocatingInstructions(plan));
        }
    }

    @Test
    void compiledTrainStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        Plan plan = trainedPlan();
        long perStep = PlanAllocation.bytesPerStep(plan);
        assertTrue(PlanAllocation.stepThreads().length >= 2, "the pool's workers are counted");
        System.out.printf("compiled step, 2 threads: %d bytes allocated per step (caller and workers)%n", perStep);
        if (perStep != 0) {
            ThreadBudget.set(1);
            fail("a compiled step allocated " + perStep + " bytes across the pool; on one thread:"
                    + PlanAllocation.allocatingInstructions(plan));
        }
    }

    @Test
    void batchNormalizationStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        Plan plan = trainedPlan(batchNormalizedCnn());
        long perStep = PlanAllocation.bytesPerStep(plan);
        System.out.printf("compiled step with batch normalization, 2 threads: %d bytes allocated per step%n", perStep);
        if (perStep != 0) {
            ThreadBudget.set(1);
            fail("a compiled step with batch normalization allocated " + perStep + " bytes across the pool; on one "
                    + "thread:" + PlanAllocation.allocatingInstructions(plan));
        }
    }

    @Test
    void elementwiseChainsAllocateNothingOnTwoThreads() {
        ThreadBudget.set(2);
        Plan plan = trainedPlan(siluCnn());
        long perStep = PlanAllocation.bytesPerStep(plan);
        System.out.printf("compiled step with elementwise chains, 2 threads: %d bytes allocated per step%n", perStep);
        if (perStep != 0) {
            ThreadBudget.set(1);
            fail("a compiled step with elementwise chains allocated " + perStep + " bytes across the pool; on one "
                    + "thread:" + PlanAllocation.allocatingInstructions(plan));
        }
    }

    @Test
    void profilingSomeStepsLeavesTheOthersAllocationFree(@TempDir Path tmp) {
        ThreadBudget.set(1);
        Model model = cnn();
        Tensor[] xy = data();
        model.fit(xy[0], xy[1], Fit.epochs(2).batchSize(32).verbose(0).profile(tmp.resolve("t.json"), 2, 3));
        assertNotNull(model.lastProfile());
        long perStep = PlanAllocation.bytesPerStep(model.trainPlan(32));
        if (perStep != 0) {
            fail("after a profiled fit, an unprofiled step allocated " + perStep + " bytes"
                    + PlanAllocation.allocatingInstructions(model.trainPlan(32)));
        }
    }
}
