package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.preprocessing.Normalization;
import dev.brisk.data.preprocessing.Rescaling;
import dev.brisk.tensor.Tensor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Batches given back with {@link PipelineIterator#recycle} are stacked into again, and nothing else is: a batch
 * still held keeps its contents, and recycling changes no element's bits.
 */
class PipelineRecyclingTest {
    private static final int SAMPLES = 203; // not a multiple of the batch sizes: a smaller last batch
    private static final int FEATURES = 12;

    private static InMemoryDataset data() {
        return TestPixels.random(SAMPLES, FEATURES, 7);
    }

    /** The workloads' pipeline: shuffle, batch, rescale in place on map workers, prefetch. */
    private static Pipeline<Batch> training(InMemoryDataset d, int mapWorkers, int prefetch) {
        return Pipeline.from(d)
                .shuffle(d.size(), 3)
                .batch(16)
                .map(Batch.features(Rescaling.divideBy(255f)), mapWorkers)
                .prefetch(prefetch);
    }

    private static void assertSameBits(Batch expected, Batch actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        assertEquals(expected.features().shape(), actual.features().shape(), what);
        assertArrayEquals(expected.features().toArray(), actual.features().toArray(), what + ": features");
        assertArrayEquals(expected.labels().toArray(), actual.labels().toArray(), what + ": labels");
    }

    @Test
    void aBatchGivenBackIsStackedIntoAgain() {
        try (PipelineIterator<Batch> it = Pipeline.from(data()).batch(16).iterator()) {
            Batch first = it.next();
            float[] features = first.features().data();
            float[] labels = first.labels().data();
            it.recycle(first);
            Batch second = it.next();
            assertSame(features, second.features().data(), "the second batch reuses the first one's features");
            assertSame(labels, second.labels().data(), "and its labels");
            Batch third = it.next(); // the second is still held: new storage
            assertNotSame(features, third.features().data());
        }
    }

    /** Stages that hand on their input's own batches pass a given-back batch down to the batch stage. */
    @Test
    void aGivenBackBatchReachesTheBatchStageThroughEveryForwardingStage() {
        Map<String, Function<Pipeline<Batch>, Pipeline<Batch>>> stages = new LinkedHashMap<>();
        stages.put("take", p -> p.take(10));
        stages.put("skip", p -> p.skip(1));
        stages.put("filter", p -> p.filter(b -> true));
        stages.put("repeat", p -> p.repeat(2));
        stages.put("prefetch", p -> p.prefetch(2));
        stages.put("shuffle", p -> p.shuffle(3, 9));
        stages.put("ignoreErrors", Pipeline::ignoreErrors);
        for (var stage : stages.entrySet()) {
            try (PipelineIterator<Batch> it = stage.getValue().apply(Pipeline.from(data()).batch(8)).iterator()) {
                Batch first = it.next();
                float[] features = first.features().data();
                it.recycle(first);
                // A prefetch or shuffle buffer holds batches stacked before the give-back: look a few further.
                boolean reused = false;
                for (int k = 0; k < 8 && it.hasNext() && !reused; k++) {
                    reused = it.next().features().data() == features;
                }
                assertTrue(reused, stage.getKey() + " did not pass the given-back batch on");
            }
        }
    }

    @Test
    void heldBatchesStayValidWhileLaterOnesAreProduced() {
        InMemoryDataset d = data();
        List<Batch> reference = training(d, 2, 3).toList(); // nothing given back: every batch owns new storage
        for (int pass = 0; pass < 5; pass++) {
            List<Batch> held = new ArrayList<>();
            List<Batch> heldCopies = new ArrayList<>();
            int k = 0;
            try (PipelineIterator<Batch> it = training(d, 2, 3).iterator()) {
                while (it.hasNext()) {
                    Batch b = it.next();
                    assertSameBits(reference.get(k), b, "batch " + k);
                    if (k % 3 == pass % 3) { // keep every third batch, give the others back at once
                        held.add(b);
                        heldCopies.add(b.copy());
                    } else {
                        it.recycle(b);
                    }
                    k++;
                }
            }
            assertEquals(reference.size(), k);
            for (int i = 0; i < held.size(); i++) {
                assertSameBits(heldCopies.get(i), held.get(i), "held batch " + i + " of pass " + pass);
            }
            assertDistinctStorage(held);
        }
    }

    /**
     * A consumer holding a window of the last batches while the producer threads run ahead and stack into the
     * storage of the ones given back: each batch leaves the window with the contents it arrived with, and no two
     * batches in the window share an array.
     */
    @Test
    void aGivenBackArrayIsNeverHandedOutWhileABatchStillHoldsIt() {
        InMemoryDataset d = data();
        List<Batch> reference = training(d, 2, 4).repeat(3).toList();
        for (int window : new int[] {1, 2, 5}) {
            ArrayDeque<Batch> held = new ArrayDeque<>();
            ArrayDeque<Batch> copies = new ArrayDeque<>();
            int k = 0;
            try (PipelineIterator<Batch> it = training(d, 2, 4).repeat(3).iterator()) {
                while (it.hasNext()) {
                    Batch b = it.next();
                    ParallelPipelineTest.spin(k % 7 * 50L); // uneven consumer: sometimes the producer runs ahead
                    assertSameBits(reference.get(k++), b, "batch " + (k - 1) + " with a window of " + window);
                    held.addLast(b);
                    copies.addLast(b.copy());
                    assertDistinctStorage(held);
                    if (held.size() > window) {
                        Batch oldest = held.removeFirst();
                        assertSameBits(copies.removeFirst(), oldest, "a batch about to be given back");
                        it.recycle(oldest);
                    }
                }
            }
            assertEquals(reference.size(), k);
        }
    }

    @Test
    void aBatchGivenBackTwiceOrLateIsIgnored() {
        try (PipelineIterator<Batch> it = Pipeline.from(data()).batch(16).iterator()) {
            Batch first = it.next();
            it.recycle(first);
            it.recycle(first); // twice: must not make its array free twice
            Batch second = it.next();
            assertSame(first.features().data(), second.features().data());
            Batch third = it.next();
            assertNotSame(second.features().data(), third.features().data(), "one array, handed out once");
            it.recycle(first); // stale: its array now belongs to the second batch, which is still held
            Batch fourth = it.next();
            assertDistinctStorage(List.of(second, third, fourth));
            it.recycle(new Batch(Tensor.zeros(16, FEATURES), Tensor.zeros(16), 16)); // not the pipeline's own
            assertDistinctStorage(List.of(second, third, fourth, it.next()));
        }
    }

    @Test
    void batchesOfACacheOrOfAnotherMapAreNotReused() {
        InMemoryDataset d = data();
        Pipeline<Batch> cached = Pipeline.from(d).batch(16).cache();
        List<Batch> first = new ArrayList<>();
        try (PipelineIterator<Batch> it = cached.iterator()) {
            it.forEachRemaining(b -> {
                first.add(b.copy());
                it.recycle(b);
            });
        }
        List<Batch> replay = cached.toList();
        for (int i = 0; i < first.size(); i++) {
            assertSameBits(first.get(i), replay.get(i), "cached batch " + i);
        }

        // A map of the user's own may keep its input (mixing it into a later batch, say): giving back its output
        // must not hand that input's storage to a later batch.
        List<Batch> kept = Collections.synchronizedList(new ArrayList<>());
        Pipeline<Batch> keeping = Pipeline.from(d).batch(16).map(b -> {
            kept.add(b);
            return b;
        }, 2);
        Map<Batch, Batch> copies = new IdentityHashMap<>(); // the map returns its input: the same object
        try (PipelineIterator<Batch> it = keeping.iterator()) {
            it.forEachRemaining(b -> {
                copies.put(b, b.copy());
                it.recycle(b);
            });
        }
        assertEquals(copies.size(), kept.size());
        for (Batch b : kept) { // in the order the workers finished
            assertSameBits(copies.get(b), b, "a batch kept by the map function");
        }
    }

    @Test
    void anElementwiseMapInPlaceGivesTheBitsOfTheAllocatingOneAndLeavesTheSourceAlone() {
        InMemoryDataset d = data();
        float[] source = d.features().toArray();
        Normalization norm = Normalization.adapt(Pipeline.from(d).map(Sample::features));
        for (Function<? super Tensor, ? extends Tensor> fn : List.of(Rescaling.divideBy(255f),
                new Rescaling(1 / 127.5f, -1f), norm)) {
            Function<Batch, Batch> inPlace = Batch.features(fn);
            Function<Batch, Batch> opaque = b -> inPlace.apply(b); // not recognisable: allocates as before
            for (int workers : new int[] {0, 2}) {
                List<Batch> expected = Pipeline.from(d).batch(16).map(opaque, workers).toList();
                try (PipelineIterator<Batch> it = Pipeline.from(d).batch(16).map(inPlace, workers).iterator()) {
                    for (int i = 0; it.hasNext(); i++) {
                        Batch b = it.next();
                        assertSameBits(expected.get(i), b, fn + " on batch " + i + ", " + workers + " workers");
                        it.recycle(b);
                    }
                }
            }
        }
        assertArrayEquals(source, d.features().toArray(), "the dataset's own storage is never written");
    }

    private static void assertDistinctStorage(Iterable<Batch> batches) {
        Set<float[]> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Batch b : batches) {
            assertTrue(arrays.add(b.features().data()), "two live batches share a features array");
            assertTrue(arrays.add(b.labels().data()), "two live batches share a labels array");
        }
    }
}
