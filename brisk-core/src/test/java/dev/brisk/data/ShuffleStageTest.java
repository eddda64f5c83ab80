package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A shuffle over an indexed source whose pass fits in the buffer permutes the indexes instead of buffering the
 * elements; it must give the buffered shuffle's order exactly, pass after pass.
 */
class ShuffleStageTest {

    /** {@code 0 .. n-1} from an indexed source, and the same through a map, which the shuffle must buffer. */
    private static Pipeline<Integer> indexed(int n) {
        return Pipeline.range(n);
    }

    private static Pipeline<Integer> buffered(int n) {
        return Pipeline.range(n).map(i -> i);
    }

    /** Three passes of {@code p}, one list each. */
    private static List<List<Integer>> threePasses(Pipeline<Integer> p) {
        return List.of(p.toList(), p.toList(), p.toList());
    }

    @Test
    void givesTheBufferedOrderInEveryPass() {
        for (int n : new int[] {0, 1, 2, 7, 100, 1000}) {
            for (int buffer : new int[] {1, Math.max(1, n - 1), Math.max(1, n), n + 1, 10 * n + 1}) {
                List<UnaryOperator<Pipeline<Integer>>> recipes = List.of(
                        p -> p.shuffle(buffer, 3),
                        p -> p.shuffle(buffer, 3).repeat(3),
                        p -> p.shuffle(buffer, 3).repeat().take(3L * n + 5),
                        p -> p.shuffle(buffer, 3).skip(2).take(n / 2),
                        p -> p.shuffle(buffer, 3).shuffle(buffer, 4));
                for (int r = 0; r < recipes.size(); r++) {
                    assertEquals(threePasses(recipes.get(r).apply(buffered(n))),
                            threePasses(recipes.get(r).apply(indexed(n))),
                            "n " + n + ", buffer " + buffer + ", recipe " + r);
                }
            }
        }
    }

    @Test
    void fullBufferPassIsThePermutationOfItsPassSeed() {
        Pipeline<Integer> p = indexed(500).shuffle(500, 41);
        for (int pass = 0; pass < 3; pass++) {
            int[] got = p.toList().stream().mapToInt(Integer::intValue).toArray();
            assertArrayEquals(Permutations.shuffled(500, 41 + pass), got, "pass " + pass);
        }
    }

    @Test
    void fullBufferMakesEachElementOnlyAsItIsGiven() {
        AtomicInteger made = new AtomicInteger();
        Pipeline<Integer> source = new IndexedSource<>(1000, i -> {
            made.incrementAndGet();
            return i;
        });
        int[] order = Permutations.shuffled(1000, 6);
        try (PipelineIterator<Integer> it = source.shuffle(1000, 6).iterator()) {
            for (int k = 0; k < 10; k++) {
                assertEquals(order[k], it.next());
                assertEquals(k + 1, made.get(), "elements made after " + (k + 1) + " were given");
            }
        }
        made.set(0);
        try (PipelineIterator<Integer> it = source.shuffle(999, 6).iterator()) {
            it.next();
            assertEquals(1000, made.get(), "a buffer smaller than the pass reads ahead as before");
        }
    }

    @Test
    void aClosedPassGivesNothingMore() {
        Autotuner tuner = new Autotuner(new AtomicInteger());
        try {
            Cursor<Integer> c = indexed(10).shuffle(10, 1).open(tuner);
            c.next();
            c.close();
            assertNull(c.next());
        } finally {
            tuner.close();
        }
    }
}
