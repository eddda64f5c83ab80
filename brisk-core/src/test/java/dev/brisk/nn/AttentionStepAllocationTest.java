package dev.brisk.nn;

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
        Model model = PlanAllocation.compiled(AttentionTrainingTest.transformerBlock(dropout));
        // Batches of 64 sequences: 128 attention products per step, split over the batch entries at two threads.
        Tensor[] xy = EagerVsCompiledTest.data(128, AttentionTrainingTest.TIME, AttentionTrainingTest.FEATURES);
        PlanAllocation.assertStepAllocatesNothing(model, xy, 64,
                "transformer-block step (attention dropout " + dropout + ")");
    }
}
