package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.Callback;
import dev.brisk.data.Batch;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.TestPixels;
import dev.brisk.data.Pipeline;
import dev.brisk.data.preprocessing.Rescaling;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * fit gives each batch back to the pipeline once its step is done, so a step fed by a pipeline allocates no batch
 * arrays, counting the training thread, the compute pool and the pipeline's threads; and training learns the same
 * bits as from arrays. (Runs in a JVM of its own: see the POM.)
 */
class PipelineFitAllocationTest {
    private static final int SAMPLES = 8192;
    private static final int FEATURES = 784;
    private static final int BATCH = 32;
    private static final long BATCH_BYTES = (long) BATCH * (FEATURES + 1) * Float.BYTES;
    private static final long SEED = 3;

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    private static InMemoryDataset raw() {
        return TestPixels.random(SAMPLES, FEATURES, 13);
    }

    private static Model model() {
        RandomSeed.set(1);
        Model m = Sequential.of(Layers.input(FEATURES), Layers.dense(10));
        m.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        return m;
    }

    /** Bytes allocated per step in the middle of each epoch after the first, the fewest over the epochs. */
    private static final class StepAllocation extends Callback {
        private final int from = SAMPLES / BATCH / 4;
        private final int to = SAMPLES / BATCH - from;
        private int epoch;
        private long[] ids;
        private long before;
        long best = Long.MAX_VALUE;

        @Override
        public void onEpochBegin(int epoch, Map<String, Double> logs) {
            this.epoch = epoch;
        }

        @Override
        public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
            if (epoch == 0) {
                return;
            }
            if (batch == from) {
                ids = PlanAllocation.threads("brisk-");
                before = PlanAllocation.allocated(ids);
            } else if (batch == to) {
                best = Math.min(best, (PlanAllocation.allocated(ids) - before) / (to - from));
            }
        }
    }

    @Test
    void trainingFromAPipelineAllocatesNoBatchArraysPerStep() {
        ThreadBudget.set(2);
        InMemoryDataset raw = raw();
        Rescaling toUnit = Rescaling.divideBy(255f);
        InMemoryDataset scaled = new InMemoryDataset(toUnit.apply(raw.features()), raw.labels());

        Model fromArrays = model();
        StepAllocation arrays = new StepAllocation();
        List<Double> arrayLoss = fromArrays.fit(scaled, Fit.epochs(4).batchSize(BATCH).seed(SEED).verbose(0)
                .callbacks(arrays)).get("loss");

        Model fromPipeline = model();
        StepAllocation piped = new StepAllocation();
        Pipeline<Batch> pipeline = Pipeline.from(raw)
                .shuffle(SAMPLES, SEED)
                .batch(BATCH)
                .map(Batch.features(toUnit), 1)
                .prefetch(2);
        List<Double> pipelineLoss = fromPipeline.fit(pipeline, Fit.epochs(4).verbose(0).callbacks(piped))
                .get("loss");

        System.out.printf("fit, bytes allocated per step (batch of %d bytes): %d from arrays, %d from a pipeline%n",
                BATCH_BYTES, arrays.best, piped.best);
        assertEquals(arrayLoss, pipelineLoss, "the same batches, so the same losses, bit for bit");
        // Without giving back, each step would allocate at least one batch (the in-place map's stacked arrays). What a
        // step allocates otherwise (queue nodes, the hand-offs between the pipeline's threads) is a few KB and grows
        // on a loaded machine, where more hand-offs park and wake (5.2 KB seen under load against 4.9 KB alone); a
        // quarter of a batch tells the two apart without failing on the load.
        assertTrue(piped.best < BATCH_BYTES / 4, "a step fed by the pipeline allocated " + piped.best
                + " bytes (one fed by arrays " + arrays.best + ")");
    }
}
