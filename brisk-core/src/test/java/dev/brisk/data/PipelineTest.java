package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The transformations one by one: elements, order and cardinality. */
class PipelineTest {

    private static List<Integer> ints(int... values) {
        List<Integer> out = new ArrayList<>();
        for (int v : values) {
            out.add(v);
        }
        return out;
    }

    @Test
    void mapFilterTakeSkip() {
        Pipeline<Integer> p = Pipeline.range(10).map(i -> i * 10).filter(i -> i % 20 == 0).skip(1).take(3);
        assertEquals(ints(20, 40, 60), p.toList());
        assertEquals(Pipeline.UNKNOWN, p.cardinality());
        assertEquals(4, Pipeline.range(10).skip(3).take(4).cardinality());
        assertEquals(0, Pipeline.range(3).skip(5).cardinality());
        assertEquals(List.of(), Pipeline.range(3).skip(5).toList());
    }

    @Test
    void repeatAndCardinality() {
        assertEquals(ints(0, 1, 2, 0, 1, 2), Pipeline.range(3).repeat(2).toList());
        assertEquals(6, Pipeline.range(3).repeat(2).cardinality());
        Pipeline<Integer> forever = Pipeline.range(3).repeat();
        assertEquals(Pipeline.INFINITE, forever.cardinality());
        assertEquals(ints(0, 1, 2, 0, 1), forever.take(5).toList());
        assertEquals(5, forever.take(5).cardinality());
        assertThrows(IllegalStateException.class, forever::toList);
        // An empty input ends repeat() instead of looping forever.
        assertEquals(List.of(), Pipeline.range(0).repeat().take(3).toList());
    }

    @Test
    void zipStopsAtTheShorterInput() {
        Pipeline<Pair<Integer, String>> z = Pipeline.range(5).zip(Pipeline.fromList(List.of("a", "b", "c")));
        assertEquals(3, z.cardinality());
        assertEquals(List.of(new Pair<>(0, "a"), new Pair<>(1, "b"), new Pair<>(2, "c")), z.toList());
        assertEquals(ints(0, 2, 4), Pipeline.range(3).zip(Pipeline.range(3).repeat(), Integer::sum).toList());
        assertEquals(3, Pipeline.range(3).zip(Pipeline.range(3).repeat(), Integer::sum).cardinality());
    }

    @Test
    void cacheRunsTheUpstreamOnce() {
        AtomicInteger calls = new AtomicInteger();
        Pipeline<Integer> p = Pipeline.range(4).map(i -> {
            calls.incrementAndGet();
            return i;
        }).cache();
        assertEquals(ints(0, 1, 2, 3), p.toList());
        assertEquals(ints(0, 1, 2, 3), p.toList());
        assertEquals(4, calls.get());
    }

    @Test
    void aPartialPassIsNotCached() {
        AtomicInteger calls = new AtomicInteger();
        Pipeline<Integer> p = Pipeline.range(4).map(i -> {
            calls.incrementAndGet();
            return i;
        }).cache();
        assertEquals(ints(0, 1), p.take(2).toList());
        assertEquals(ints(0, 1, 2, 3), p.toList());
        assertEquals(ints(0, 1, 2, 3), p.toList());
        assertEquals(6, calls.get());
    }

    @Test
    void fullBufferShuffleIsTheDatasetPermutationAndChangesEachPass() {
        Pipeline<Integer> p = Pipeline.range(50).shuffle(50, 7);
        List<Integer> first = p.toList();
        List<Integer> second = p.toList();
        int[] expected = Permutations.shuffled(50, 7);
        int[] expectedNext = Permutations.shuffled(50, 8);
        assertArrayEquals(expected, first.stream().mapToInt(Integer::intValue).toArray());
        assertArrayEquals(expectedNext, second.stream().mapToInt(Integer::intValue).toArray());
        assertNotEquals(first, second);
        // A fresh pipeline with the same seed starts over.
        assertEquals(first, Pipeline.range(50).shuffle(50, 7).toList());
        assertEquals(first, Pipeline.range(50).shuffle(1000, 7).toList());
    }

    @Test
    void smallBufferShuffleIsALocalPermutation() {
        int n = 1000;
        int buffer = 10;
        List<Integer> out = Pipeline.range(n).shuffle(buffer, 3).toList();
        assertEquals(n, new HashSet<>(out).size());
        assertEquals(out, Pipeline.range(n).shuffle(buffer, 3).toList());
        for (int position = 0; position < n; position++) {
            // The buffer holds inputs [position - ..., position + buffer - 1] when output `position` is drawn.
            assertTrue(out.get(position) <= position + buffer - 1, "element " + out.get(position) + " at "
                    + position);
        }
        assertNotEquals(Pipeline.range(n).toList(), out);
        // A buffer of 1 keeps the order.
        assertEquals(Pipeline.range(20).toList(), Pipeline.range(20).shuffle(1, 3).toList());
    }

    @Test
    void batchStacksSamplesAndKeepsOrDropsTheRemainder() {
        float[] x = new float[7 * 2];
        float[] y = new float[7];
        for (int i = 0; i < 7; i++) {
            x[2 * i] = i;
            x[2 * i + 1] = -i;
            y[i] = i % 3;
        }
        Pipeline<Sample> samples = Pipeline.fromArrays(Tensor.of(x, 7, 2), Tensor.of(y, 7));
        List<Batch> batches = samples.batch(3).toList();
        assertEquals(3, samples.batch(3).cardinality());
        assertEquals(3, batches.size());
        assertEquals(Shape.of(3, 2), batches.get(0).features().shape());
        assertEquals(Shape.of(1, 2), batches.get(2).features().shape());
        assertArrayEquals(new float[] {3, -3, 4, -4, 5, -5}, batches.get(1).features().toArray());
        assertArrayEquals(new float[] {0, 1, 2}, batches.get(1).labels().toArray());
        List<Batch> dropped = samples.batch(3, true).toList();
        assertEquals(2, samples.batch(3, true).cardinality());
        assertEquals(2, dropped.size());
        Batch unlabelled = Pipeline.fromTensor(Tensor.of(x, 7, 2)).batch(4).toList().get(0);
        assertNull(unlabelled.labels());
        assertEquals(Shape.of(4, 2), unlabelled.features().shape());
    }

    @Test
    void batchNamesTheElementOfAnotherShape() {
        Pipeline<Tensor> ragged = Pipeline.range(5).map(i -> Tensor.zeros(i == 3 ? 3 : 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ragged.batch(4).toList());
        assertEquals("element 3 of batch 0 has features of shape (3,) but the first element's is (2,); batch() "
                + "needs elements of one shape (resize or crop them first)", e.getMessage());
        IllegalArgumentException notASample = assertThrows(IllegalArgumentException.class,
                () -> Pipeline.range(3).batch(2).toList());
        assertTrue(notASample.getMessage().startsWith("batch() stacks Samples or Tensors, but element 0 is a "
                + "java.lang.Integer"), notASample.getMessage());
    }

    @Test
    void arraysOfDifferentLengthsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Pipeline.fromArrays(Tensor.zeros(4, 2), Tensor.zeros(3)));
        assertTrue(e.getMessage().contains("disagree on the number of samples: 4 vs 3"), e.getMessage());
    }

    @Test
    void badArgumentsAreRefusedWithTheirName() {
        Pipeline<Integer> p = Pipeline.range(3);
        assertEquals("shuffle buffer size must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> p.shuffle(0, 1)).getMessage());
        assertEquals("batch size must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> p.batch(0)).getMessage());
        assertEquals("map parallelism must be positive or AUTOTUNE, got -3",
                assertThrows(IllegalArgumentException.class, () -> p.map(i -> i, -3)).getMessage());
        assertEquals("prefetch buffer size must be at least 1 or AUTOTUNE, got 0",
                assertThrows(IllegalArgumentException.class, () -> p.prefetch(0)).getMessage());
    }

    @Test
    void mapMustNotReturnNull() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> Pipeline.range(3).map(i -> i == 1 ? null : i).toList());
        assertEquals("map function returned null for element 1", e.getMessage());
    }
}
