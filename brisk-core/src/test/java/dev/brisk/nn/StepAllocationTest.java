package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.nn.layers.Layers;
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
        return PlanAllocation.compiled(Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(4, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(32, Activation.RELU),
                Layers.dense(5)));
    }

    /** A convolution whose 64K outputs a step normalizes: big enough for the kernels to split over two threads. */
    private static Model batchNormalizedCnn() {
        RandomSeed.set(1);
        return PlanAllocation.compiled(Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(32, 3, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(5)));
    }

    /**
     * Silu and hard silu, whose elementwise ops (and their gradients') run as general elementwise chains; the
     * convolution's 64K outputs a step are enough to split over two threads.
     */
    private static Model siluCnn() {
        RandomSeed.set(1);
        return PlanAllocation.compiled(Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(32, 3, Activation.SILU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(16, Activation.HARD_SILU),
                Layers.dense(5)));
    }

    private static Tensor[] data() {
        Tensor[] xy = EagerVsCompiledTest.data(64, 10, 10, 1);
        for (int i = 0; i < xy[1].size(); i++) {
            xy[1].set(i, xy[1].get(i) % 5);
        }
        return xy;
    }

    @Test
    void compiledTrainStepAllocatesNothingOnOneThread() {
        ThreadBudget.set(1);
        PlanAllocation.assertStepAllocatesNothing(cnn(), data(), 32, "train step");
    }

    @Test
    void compiledTrainStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        Model model = cnn();
        Tensor[] xy = data();
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(32).verbose(0));
        assertTrue(PlanAllocation.stepThreads().length >= 2, "the pool's workers are counted");
        PlanAllocation.assertAllocatesNothing(model.trainPlan(32), "train step");
    }

    @Test
    void batchNormalizationStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        PlanAllocation.assertStepAllocatesNothing(batchNormalizedCnn(), data(), 32,
                "train step with batch normalization");
    }

    @Test
    void residualBlockStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        RandomSeed.set(1);
        // Batch normalization, the residual add and relu as one call (Kernels.batchNormBinary).
        PlanAllocation.assertStepAllocatesNothing(PlanAllocation.compiled(FusedTrainingTest.residual()),
                EagerVsCompiledTest.data(128, 6, 6, 16), 32, "train step of a residual block");
    }

    @Test
    void winogradConvolutionsAllocateNothingOnTwoThreads() {
        ThreadBudget.set(2);
        RandomSeed.set(1);
        PlanAllocation.assertStepAllocatesNothing(PlanAllocation.compiled(FusedTrainingTest.residual(32)),
                EagerVsCompiledTest.data(128, 6, 6, 32), 32, "train step of a residual block of 32 channels");
    }

    @Test
    void elementwiseChainsAllocateNothingOnTwoThreads() {
        ThreadBudget.set(2);
        PlanAllocation.assertStepAllocatesNothing(siluCnn(), data(), 32, "train step with elementwise chains");
    }

    @Test
    void profilingSomeStepsLeavesTheOthersAllocationFree(@TempDir Path tmp) {
        ThreadBudget.set(1);
        Model model = cnn();
        Tensor[] xy = data();
        model.fit(xy[0], xy[1], Fit.epochs(2).batchSize(32).verbose(0).profile(tmp.resolve("t.json"), 2, 3));
        assertNotNull(model.lastProfile());
        PlanAllocation.assertAllocatesNothing(model.trainPlan(32), "unprofiled train step after a profiled fit");
    }
}
