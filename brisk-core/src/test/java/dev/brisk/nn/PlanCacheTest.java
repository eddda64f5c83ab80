package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.losses.Losses;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The compiled steps' cache: one trace per kind and data shape, reused however often the shape comes back, the
 * least recently used forgotten beyond the capacity, lookups without allocation; and in a model, one trace per
 * length and batch size (the partial last batch included) over several epochs.
 */
class PlanCacheTest {
    private static StepBatch batch(int rows, int length) {
        return new StepBatch(new Tensor[] {Tensor.zeros(rows, length, 3)}, new Tensor[] {Tensor.zeros(rows)}, rows);
    }

    @Test
    void oneEntryPerKindAndShapeReusedAndTheLeastRecentlyUsedForgotten() {
        PlanCache<String> cache = new PlanCache<>(2);
        StepBatch five = batch(4, 5);
        StepBatch eight = batch(4, 8);
        cache.put(StepRunner.Kind.TRAIN, five, false, "train 5");
        assertEquals("train 5", cache.find(StepRunner.Kind.TRAIN, batch(4, 5), false), "the same shape again");
        assertNull(cache.find(StepRunner.Kind.EVAL, five, false), "another kind");
        assertNull(cache.find(StepRunner.Kind.TRAIN, batch(3, 5), false), "another batch size");
        assertNull(cache.find(StepRunner.Kind.TRAIN, five.withWeights(Tensor.zeros(4)), true), "sample weights");
        cache.put(StepRunner.Kind.TRAIN, eight, false, "train 8");
        assertEquals("train 5", cache.find(StepRunner.Kind.TRAIN, five, false), "length 5 used last");
        cache.put(StepRunner.Kind.EVAL, five, false, "eval 5");
        assertEquals(2, cache.size());
        assertEquals(3, cache.traces());
        assertNull(cache.find(StepRunner.Kind.TRAIN, eight, false), "length 8 was the least recently used");
        assertEquals("train 5", cache.find(StepRunner.Kind.TRAIN, five, false));
        assertEquals("eval 5", cache.find(StepRunner.Kind.EVAL, five, false));
    }

    @Test
    void findingAStepAllocatesNothing() {
        PlanCache<String> cache = new PlanCache<>(16);
        StepBatch[] batches = new StepBatch[8];
        for (int i = 0; i < batches.length; i++) {
            batches[i] = batch(4, 3 + i);
            cache.put(StepRunner.Kind.TRAIN, batches[i], false, "train " + i);
        }
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        int misses = 0;
        for (int round = 0; round < 20 && best > 0; round++) {
            long before = bean.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                misses += cache.find(StepRunner.Kind.TRAIN, batches[i % batches.length], false) == null ? 1 : 0;
            }
            best = Math.min(best, bean.getCurrentThreadAllocatedBytes() - before);
        }
        assertEquals(0, best, "bytes allocated by 10,000 lookups");
        assertEquals(0, misses, "every lookup found its step");
    }

    /**
     * Two epochs over batches of two lengths, each length's last batch partial: one train plan per length and
     * batch size, traced in the first epoch only.
     */
    @Test
    void aModelTracesOncePerLengthAndBatchSize() {
        List<Batch> batches = new ArrayList<>();
        for (int length : new int[] {5, 9}) {
            for (int rows : new int[] {4, 4, 2}) {
                batches.add(new Batch(Tensor.zeros(rows, length, 4), Tensor.zeros(rows), rows));
            }
        }
        RandomSeed.set(1);
        Model m = OpenLengthTest.model("lstm", Shape.OPEN);
        m.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true));
        m.fit(Pipeline.fromList(batches), Fit.epochs(1).verbose(0));
        assertEquals(4, m.planTraces(), "lengths 5 and 9, batches of 4 and 2");
        m.fit(Pipeline.fromList(batches), Fit.epochs(2).verbose(0));
        assertEquals(4, m.planTraces(), "no new trace for shapes seen before");
    }
}
