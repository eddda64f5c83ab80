package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class InMemoryDatasetTest {

    /** n samples of shape (2, 3) whose every feature element of sample i is i + k/10, and label i. */
    private static InMemoryDataset indexed(int n) {
        float[] f = new float[n * 6];
        float[] l = new float[n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 6; k++) {
                f[i * 6 + k] = i + k / 10f;
            }
            l[i] = i;
        }
        return new InMemoryDataset(Tensor.of(f, n, 2, 3), Tensor.of(l, n));
    }

    /** Sample ids seen in one epoch, checking that features travel with their labels. */
    private static List<Integer> epoch(Dataset ds, int batchSize, boolean shuffle, long seed) {
        List<Integer> seen = new ArrayList<>();
        for (Batch b : ds.batches(batchSize, shuffle, seed)) {
            for (int r = 0; r < b.size(); r++) {
                int id = (int) b.labels().get(r);
                for (int k = 0; k < 6; k++) {
                    assertEquals(id + k / 10f, b.features().get(r * 6 + k), 0f);
                }
                seen.add(id);
            }
        }
        return seen;
    }

    @Test
    void shapesAndSize() {
        InMemoryDataset ds = indexed(10);
        assertEquals(10, ds.size());
        assertEquals(Shape.of(2, 3), ds.featureShape());
        assertEquals(Shape.scalar(), ds.labelShape());
        assertEquals("InMemoryDataset[10 samples, features (2, 3), labels ()]", ds.toString());
    }

    @Test
    void mismatchedSampleCountsNameBothShapes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new InMemoryDataset(Tensor.zeros(5, 4), Tensor.zeros(4)));
        assertEquals("features of shape (5, 4) and labels of shape (4,) disagree on the number of samples: 5 vs 4",
                e.getMessage());
    }

    @Test
    void shuffleIsASeededPermutationPerEpoch() {
        InMemoryDataset ds = indexed(103);
        List<Integer> a = epoch(ds, 16, true, 42);
        List<Integer> again = epoch(ds, 16, true, 42);
        List<Integer> other = epoch(ds, 16, true, 43);
        assertEquals(a, again);
        assertNotEquals(a, other);
        assertNotEquals(epoch(ds, 16, false, 0), a);
        for (List<Integer> order : List.of(a, other)) {
            assertEquals(103, order.size());
            assertEquals(103, order.stream().distinct().count());
            assertTrue(order.stream().allMatch(i -> i >= 0 && i < 103));
        }
        // the same iterable replays the same order
        Iterable<Batch> batches = ds.batches(16, true, 7);
        assertEquals(firstLabels(batches), firstLabels(batches));
    }

    private static List<Float> firstLabels(Iterable<Batch> batches) {
        Batch b = batches.iterator().next();
        List<Float> out = new ArrayList<>();
        for (int i = 0; i < b.size(); i++) {
            out.add(b.labels().get(i));
        }
        return out;
    }

    @Test
    void partialLastBatchIsKept() {
        InMemoryDataset ds = indexed(10);
        for (boolean shuffle : new boolean[] {false, true}) {
            List<Integer> sizes = new ArrayList<>();
            for (Batch b : ds.batches(4, shuffle, 1)) {
                sizes.add(b.size());
                assertEquals(Shape.of(b.size(), 2, 3), b.features().shape());
                assertEquals(Shape.of(b.size()), b.labels().shape());
            }
            assertEquals(List.of(4, 4, 2), sizes);
        }
        assertEquals(3, ds.batchCount(4));
        assertEquals(1, ds.batchCount(10));
        assertEquals(1, ds.batchCount(128));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), epoch(ds, 3, false, 0));
    }

    @Test
    void iteratorEndsCleanly() {
        Iterator<Batch> it = indexed(3).batches(2, true, 0).iterator();
        it.next();
        it.next();
        assertFalse(it.hasNext());
        assertThrows(NoSuchElementException.class, it::next);
        assertFalse(indexed(0).batches(2, true, 0).iterator().hasNext());
    }

    @Test
    void batchSizeMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> indexed(3).batches(0, false, 0));
        assertEquals("batch size must be positive, got 0", e.getMessage());
    }

    @Test
    void shuffledBatchesReuseBuffersAndCopySurvives() {
        Iterator<Batch> it = indexed(8).batches(4, true, 5).iterator();
        Batch first = it.next();
        Batch kept = first.copy();
        Batch second = it.next();
        assertSame(first.features().data(), second.features().data());
        List<Float> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(kept.labels().get(i));
            ids.add(second.labels().get(i));
        }
        assertEquals(8, ids.stream().distinct().count(), "the copy kept the first batch intact: " + ids);
    }

    @Test
    void largeShuffledBatchesGatheredOnTwoThreadsMatchTheirLabels() {
        // 100 rows of 784 floats per batch: the gather is split over the compute pool; 250 samples leave a last,
        // partial batch of 50, and 100 is not a multiple of the 16 rows of a chunk.
        int n = 250;
        int row = 784;
        float[] f = new float[n * row];
        float[] l = new float[n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < row; k++) {
                f[i * row + k] = i * 1000 + k;
            }
            l[i] = i;
        }
        InMemoryDataset ds = new InMemoryDataset(Tensor.of(f, n, row), Tensor.of(l, n));
        dev.brisk.parallel.ThreadBudget.set(2);
        try {
            List<Integer> seen = new ArrayList<>();
            for (Batch b : ds.batches(100, true, 11)) {
                float[] features = b.features().toArray();
                for (int r = 0; r < b.size(); r++) {
                    int id = (int) b.labels().get(r);
                    seen.add(id);
                    for (int k = 0; k < row; k++) {
                        assertEquals(id * 1000 + k, features[r * row + k], "row " + r + " of sample " + id);
                    }
                }
            }
            assertEquals(n, seen.stream().distinct().count());
        } finally {
            dev.brisk.parallel.ThreadBudget.reset();
        }
    }

    @Test
    void shuffledBatchesGoStraightIntoADestinationOfTheRightSize() {
        // Floats and bytes (divided as rows are copied), 40 rows of 784 (split over two threads) and 10 rows.
        byte[] raw = new byte[130 * 784];
        new java.util.Random(3).nextBytes(raw);
        float[] labels = new float[130];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = i;
        }
        InMemoryDataset bytes = new InMemoryDataset(new BytePixels(raw, 0, Shape.of(130, 784), 255f),
                Tensor.of(labels, 130));
        InMemoryDataset[] datasets = {indexed(25), bytes, bytes.slice(0, 50).reshapeFeatures(Shape.of(28, 28, 1))};
        dev.brisk.parallel.ThreadBudget.set(2);
        try {
            for (InMemoryDataset ds : datasets) {
                int batch = ds.size() > 100 ? 40 : 10;
                Tensor full = Tensor.zeros(ds.featureShape().prepend(batch));
                List<Integer> asked = new ArrayList<>();
                FeatureDestination into = rows -> {
                    asked.add(rows);
                    // A full batch goes into `full`; the last, partial one is offered a tensor of the wrong size.
                    return rows == batch ? full : Tensor.zeros(ds.featureShape().prepend(batch));
                };
                Iterator<Batch> plain = ds.batches(batch, true, 9).iterator();
                Iterator<Batch> direct = ds.batches(batch, true, 9, into).iterator();
                while (plain.hasNext()) {
                    Batch expected = plain.next();
                    Batch actual = direct.next();
                    assertEquals(expected.features().shape(), actual.features().shape());
                    assertArrayEquals(expected.features().toArray(), actual.features().toArray());
                    assertArrayEquals(expected.labels().toArray(), actual.labels().toArray());
                    boolean isFull = actual.size() == batch;
                    assertEquals(isFull, actual.features().data() == full.data(),
                            "batch of " + actual.size() + " rows went into the destination");
                    if (isFull) {
                        assertArrayEquals(expected.features().toArray(), full.toArray());
                    }
                }
                assertFalse(direct.hasNext());
                assertEquals(ds.batchCount(batch), asked.size());
            }
        } finally {
            dev.brisk.parallel.ThreadBudget.reset();
        }
    }

    @Test
    void unshuffledBatchesAreViewsOfTheDataset() {
        InMemoryDataset ds = indexed(8);
        Batch b = ds.batches(4, false, 0).iterator().next();
        assertSame(ds.features().data(), b.features().data());
    }

    @Test
    void nonScalarLabelsAreGatheredPerRow() {
        float[] oneHot = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        InMemoryDataset ds = new InMemoryDataset(Tensor.of(new float[] {0, 1, 2}, 3, 1), Tensor.of(oneHot, 3, 3));
        assertEquals(Shape.of(3), ds.labelShape());
        for (Batch b : ds.batches(2, true, 9)) {
            for (int r = 0; r < b.size(); r++) {
                int id = (int) b.features().get(r);
                assertEquals(1f, b.labels().at(r, id));
            }
        }
    }

    @Test
    void takeSliceAndReshapeShareStorage() {
        InMemoryDataset ds = indexed(10);
        InMemoryDataset tail = ds.slice(7, 10);
        assertEquals(3, tail.size());
        assertEquals(7f, tail.labels().get(0));
        assertEquals(7.5f, tail.features().get(5), 0f);
        assertEquals(List.of(7, 8, 9), epoch(tail, 2, false, 0));
        assertEquals(4, ds.take(4).size());
        assertThrows(IllegalArgumentException.class, () -> ds.take(11));

        InMemoryDataset flat = ds.flatten();
        assertEquals(Shape.of(6), flat.featureShape());
        assertSame(ds.features().data(), flat.features().data());
        assertEquals(Shape.of(3, 2, 1), ds.reshapeFeatures(Shape.of(3, 2, 1)).featureShape());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ds.reshapeFeatures(Shape.of(5)));
        assertEquals("cannot view features of shape (2, 3) per sample as (5,): 6 vs 5 elements", e.getMessage());
    }

    @Test
    void numClassesAndLabelChecks() {
        InMemoryDataset ds = new InMemoryDataset(Tensor.zeros(6, 1), Tensor.of(new float[] {0, 3, 1, 9, 2, 10}, 6));
        assertEquals(11, ds.numClasses());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ds.checkClassLabels(10));
        assertEquals("label 10 at index 5 is outside [0, 10)", e.getMessage());
        ds.take(5).checkClassLabels(10);

        InMemoryDataset negative = new InMemoryDataset(Tensor.zeros(2, 1), Tensor.of(new float[] {0, -1}, 2));
        e = assertThrows(IllegalArgumentException.class, negative::numClasses);
        assertEquals("label -1 at index 1 is negative; class indexes start at 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> negative.checkClassLabels(10));
        assertEquals("label -1 at index 1 is outside [0, 10)", e.getMessage());

        InMemoryDataset fractional = new InMemoryDataset(Tensor.zeros(2, 1), Tensor.of(new float[] {2.5f, 0}, 2));
        e = assertThrows(IllegalArgumentException.class, () -> fractional.checkClassLabels(10));
        assertEquals("label 2.5 at index 0 is not an integer class index", e.getMessage());

        InMemoryDataset oneHot = new InMemoryDataset(Tensor.zeros(2, 1), Tensor.zeros(2, 3));
        e = assertThrows(IllegalArgumentException.class, () -> oneHot.checkClassLabels(3));
        assertEquals("class-index labels must have shape (N,), got (2, 3)", e.getMessage());
        assertEquals(0, indexed(0).numClasses());
    }

    @Test
    void permutationsAreSeededFisherYates() {
        assertArrayEquals(Permutations.shuffled(50, 3), Permutations.shuffled(50, 3));
        int[] p = Permutations.shuffled(50, 3).clone();
        Arrays.sort(p);
        assertArrayEquals(Permutations.identity(50), p);
        assertEquals(0, Permutations.shuffled(0, 1).length);
    }
}
