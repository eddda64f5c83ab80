package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A compiled train step of a transformer block (batched products, permutations, softmax, layer normalization,
 * attention dropout) allocates nothing once the JIT has compiled its kernels, on one thread or two. (Runs in a JVM
 * of its own with the other allocation tests: see the POM.)
 */
class AttentionStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void transformerBlockStepAllocatesNothing(int threads) {
        ThreadBudget.set(threads);
        RandomSeed.set(1);
        Model model = AttentionTrainingTest.transformerBlock(0.1f);
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        // Batches of 64 sequences: 128 attention products per step, split over the batch entries at two threads.
        Tensor[] xy = EagerVsCompiledTest.data(128, AttentionTrainingTest.TIME, AttentionTrainingTest.FEATURES);
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0));
        Plan plan = model.trainPlan(64);
        assertNotNull(plan);
        long perStep = PlanAllocation.bytesPerStep(plan);
        System.out.printf("transformer block step, %d thread(s): %d bytes allocated per step%n", threads, perStep);
        if (perStep != 0) {
            fail("a compiled transformer-block step allocated " + perStep + " bytes at " + threads + " thread(s)");
        }
    }

}
