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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A compiled train step of a transformer block (the fused attention, or with attention dropout batched products,
 * permutations, softmax and dropout; layer normalization) allocates nothing once the JIT has compiled its kernels,
 * on one thread or two. (Runs in a JVM of its own with the other allocation tests: see the POM.)
 */
class AttentionStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @ParameterizedTest
    @CsvSource({"1, 0.1", "2, 0.1", "1, 0", "2, 0"})
    void transformerBlockStepAllocatesNothing(int threads, float dropout) {
        ThreadBudget.set(threads);
        RandomSeed.set(1);
        // Without attention dropout the block trains through the fused ATTENTION op; with it, through the
        // probabilities (batched products, permutes, softmax, dropout).
        Model model = AttentionTrainingTest.transformerBlock(dropout);
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        // Batches of 64 sequences: 128 attention products per step, split over the batch entries at two threads.
        Tensor[] xy = EagerVsCompiledTest.data(128, AttentionTrainingTest.TIME, AttentionTrainingTest.FEATURES);
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0));
        Plan plan = model.trainPlan(64);
        assertNotNull(plan);
        long perStep = PlanAllocation.bytesPerStep(plan);
        System.out.printf("transformer block step, dropout %s, %d thread(s): %d bytes allocated per step%n", dropout,
                threads, perStep);
        if (perStep != 0) {
            fail("a compiled transformer-block step (attention dropout " + dropout + ") allocated " + perStep
                    + " bytes at " + threads + " thread(s)");
        }
    }

}
