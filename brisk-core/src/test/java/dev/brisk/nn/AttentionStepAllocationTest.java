package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.lang.management.ManagementFactory;
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
        long perStep = bytesPerStep(plan);
        System.out.printf("transformer block step, %d thread(s): %d bytes allocated per step%n", threads, perStep);
        if (perStep != 0) {
            fail("a compiled transformer-block step allocated " + perStep + " bytes at " + threads + " thread(s)");
        }
    }

    /** The fewest bytes per step over rounds of warm-up and measurement (compilation runs in the background). */
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

    private static long allocated(com.sun.management.ThreadMXBean bean, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += bean.getThreadAllocatedBytes(id);
        }
        return sum;
    }
}
