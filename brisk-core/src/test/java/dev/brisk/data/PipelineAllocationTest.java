package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.preprocessing.Rescaling;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The workloads' pipeline (shuffle, batch, an elementwise map on workers, prefetch) allocates no batch arrays in
 * the steady state when the consumer gives each batch back, counting the bytes of the consumer, the prefetch
 * thread and the map workers. (Runs in a JVM of its own: see the POM.)
 */
class PipelineAllocationTest {
    private static final int SAMPLES = 16_384;
    private static final int FEATURES = 784;
    private static final int BATCH = 32;
    /** Bytes of one batch's features and labels. */
    private static final long BATCH_BYTES = (long) BATCH * (FEATURES + 1) * Float.BYTES;
    /**
     * A bound on one element's objects: a {@link Sample} and the two tensors viewing its row (about 100 bytes). The
     * full-size shuffle makes them as it gives them (it permutes the source's indexes), so they fall in the
     * measured middle of a pass.
     */
    private static final long SAMPLE_VIEW_BYTES = 128;

    private static final InMemoryDataset DATA = data();

    private static InMemoryDataset data() {
        return TestPixels.random(SAMPLES, FEATURES, 11);
    }

    private static Pipeline<Batch> pipeline() {
        return Pipeline.from(DATA)
                .shuffle(SAMPLES, 5)
                .batch(BATCH)
                .map(Batch.features(Rescaling.divideBy(255f)), 2)
                .prefetch(2);
    }

    /** The calling thread, the prefetch thread and the map workers. */
    private static long[] pipelineThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t == Thread.currentThread() || t.getName().startsWith("brisk-pipeline-"))
                .mapToLong(Thread::threadId)
                .toArray();
    }

    /** Bytes allocated so far by these threads (read one by one: the array-returning call would allocate). */
    private static long allocated(com.sun.management.ThreadMXBean bean, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += Math.max(0, bean.getThreadAllocatedBytes(id));
        }
        return sum;
    }

    /**
     * The fewest bytes allocated per batch over passes, measured in the middle of each pass (after the pipeline's
     * threads have started), giving back each batch or not.
     */
    private static long bytesPerBatch(boolean giveBack, int passes) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int batches = SAMPLES / BATCH;
        int from = batches / 4;
        int to = batches - batches / 4;
        long best = Long.MAX_VALUE;
        for (int pass = 0; pass < passes; pass++) {
            long[] ids = null;
            long before = 0;
            try (PipelineIterator<Batch> it = pipeline().iterator()) {
                for (int k = 0; k < to; k++) {
                    if (k == from) {
                        ids = pipelineThreads();
                        before = allocated(bean, ids);
                    }
                    Batch b = it.next();
                    if (giveBack) {
                        it.recycle(b);
                    }
                }
                long after = allocated(bean, ids);
                best = Math.min(best, (after - before) / (to - from));
            }
        }
        return best;
    }

    @Test
    void batchesGivenBackAreStackedWithoutAllocatingArrays() {
        bytesPerBatch(true, 6); // warm-up: let the JIT compile the stages
        long kept = bytesPerBatch(false, 2);
        long givenBack = bytesPerBatch(true, 6);
        System.out.printf("pipeline allocation per batch of %d bytes: %d bytes when kept, %d when given back%n",
                BATCH_BYTES, kept, givenBack);
        assertTrue(kept > BATCH_BYTES / 2, "without giving back every batch is new storage (and the measurement "
                + "sees the pipeline's threads), but only " + kept + " bytes per batch were counted");
        assertTrue(givenBack < BATCH * SAMPLE_VIEW_BYTES + BATCH_BYTES / 100, "a batch given back is reused, but "
                + "the pipeline still allocated " + givenBack + " bytes per batch of " + BATCH_BYTES + " bytes");
    }
}
