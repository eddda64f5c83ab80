package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brisk.callbacks.Callback;
import dev.brisk.data.Batch;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.Pipeline;
import dev.brisk.data.PipelineIterator;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.parallel.ThreadBudget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * W2 trained through the input pipeline from the IDX files (shuffle, parallel map, batch, prefetch) learns exactly
 * what it learns from arrays: the pipeline makes the same batches, so a few hundred steps give the same losses and
 * the same test accuracy. Skipped where Fashion-MNIST is not installed, unless {@code BRISK_REQUIRE_DATA=1}, as
 * {@link WorkloadAccuracyTest}.
 *
 * <p>The losses are compared to 1e-5 rather than bit for bit: if the machine is so busy that training waits for
 * the pipeline, AUTOTUNE takes a thread from the compute kernels, and their sums are then split differently.
 */
class WorkloadPipelineTest {
    private static final int STEPS = 200;
    private static final long SEED = 7;
    private static InMemoryDataset raw;
    private static InMemoryDataset scaled;
    private static InMemoryDataset test;

    @BeforeAll
    static void load() throws IOException {
        RealData.assumeInstalled();
        raw = Workloads.Workload.W2.prepare(FashionMnist.load(FashionMnist.DEFAULT_DIR, 1f).train())
                .take(STEPS * Workloads.BATCH_SIZE);
        var split = FashionMnist.load();
        scaled = split.train().take(STEPS * Workloads.BATCH_SIZE);
        test = split.test();
        ThreadBudget.set(2);
    }

    @AfterAll
    static void resetBudget() {
        ThreadBudget.reset();
    }

    private static Pipeline<Batch> pipeline() {
        return WorkloadPipelines.training(raw, Workloads.BATCH_SIZE, SEED);
    }

    /** The running loss after each step. */
    private static final class Losses extends Callback {
        final List<Double> values = new ArrayList<>();

        @Override
        public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
            values.add(logs.get("loss"));
        }
    }

    @Test
    void thePipelineMakesTheBatchesFitMakesFromArraysAlsoWhenItReusesThem() {
        Iterator<Batch> arrays = scaled.batches(Workloads.BATCH_SIZE, true, SEED).iterator();
        int n = 0;
        try (PipelineIterator<Batch> piped = pipeline().iterator()) {
            while (arrays.hasNext()) {
                Batch a = arrays.next();
                Batch p = piped.next();
                assertEquals(a.features().shape(), p.features().shape(), "batch " + n);
                assertArrayEquals(a.features().toArray(), p.features().toArray(), "features of batch " + n);
                assertArrayEquals(a.labels().toArray(), p.labels().toArray(), "labels of batch " + n);
                piped.recycle(p); // as fit does: later batches are stacked into its arrays
                n++;
            }
            assertFalse(piped.hasNext());
        }
        assertEquals(STEPS, n);
    }

    @Test
    void w2LearnsTheSameThroughThePipelineAsThroughArrays() {
        RandomSeed.set(2);
        Model fromArrays = Workloads.Workload.W2.compiledModel();
        Losses arrayLosses = new Losses();
        fromArrays.fit(scaled, Fit.epochs(1).batchSize(Workloads.BATCH_SIZE).seed(SEED).verbose(0)
                .callbacks(arrayLosses));
        double arrayAccuracy = fromArrays.evaluate(test, Workloads.BATCH_SIZE).get("accuracy");

        RandomSeed.set(2);
        Model fromPipeline = Workloads.Workload.W2.compiledModel();
        Losses pipelineLosses = new Losses();
        fromPipeline.fit(pipeline(), Fit.epochs(1).verbose(0).callbacks(pipelineLosses));
        double pipelineAccuracy = fromPipeline.evaluate(test, Workloads.BATCH_SIZE).get("accuracy");

        assertEquals(STEPS, pipelineLosses.values.size());
        double worst = 0;
        for (int i = 0; i < STEPS; i++) {
            worst = Math.max(worst, Math.abs(arrayLosses.values.get(i) - pipelineLosses.values.get(i)));
        }
        System.out.printf(Locale.ROOT, "W2, %d steps: loss %.5f (arrays) vs %.5f (pipeline), largest step "
                        + "difference %.2e%s; test accuracy %.4f vs %.4f%n", STEPS, arrayLosses.values.get(STEPS - 1),
                pipelineLosses.values.get(STEPS - 1), worst, worst == 0 ? " (bit for bit)" : "", arrayAccuracy,
                pipelineAccuracy);
        for (int i = 0; i < STEPS; i++) {
            assertEquals(arrayLosses.values.get(i), pipelineLosses.values.get(i), 1e-5, "running loss at step " + i);
        }
        assertEquals(arrayAccuracy, pipelineAccuracy, 0.01);
    }
}
