package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parallel map and prefetch: order, errors in their place, and threads that stop. */
class ParallelPipelineTest {

    /** Burns roughly {@code micros} microseconds of CPU. */
    static void spin(long micros) {
        long end = System.nanoTime() + micros * 1000;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static BadRecordException bad(int i) {
        return new BadRecordException(Path.of("data.csv"), i + 2, "data.csv line " + (i + 2) + ": bad");
    }

    @Test
    void parallelMapKeepsTheInputOrder() {
        Pipeline<Integer> slowAndUneven = Pipeline.range(300).map(i -> {
            spin((i * 37L) % 11 * 20);
            return i * 2;
        }, 4);
        List<Integer> expected = Pipeline.range(300).map(i -> i * 2).toList();
        assertEquals(expected, slowAndUneven.toList());
        assertEquals(expected, slowAndUneven.prefetch(3).toList());
        assertEquals(expected, Pipeline.range(300).map(i -> i * 2, Pipeline.AUTOTUNE).prefetch(Pipeline.AUTOTUNE)
                .toList());
    }

    @Test
    void badRecordsSurfaceInTheirPlaceAndThePassGoesOn() {
        Pipeline<Integer> p = Pipeline.range(10).map(i -> {
            if (i == 3 || i == 7) {
                throw bad(i);
            }
            return i;
        }, 3).prefetch(2);
        List<Object> seen = new ArrayList<>();
        try (PipelineIterator<Integer> it = p.iterator()) {
            while (true) {
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    seen.add(it.next());
                } catch (BadRecordException e) {
                    seen.add(e.getMessage());
                }
            }
        }
        assertEquals(List.of(0, 1, 2, "data.csv line 5: bad", 4, 5, 6, "data.csv line 9: bad", 8, 9), seen);
    }

    @Test
    void ignoreErrorsDropsAndCountsBadRecordsOnly() {
        BadRecords skipped = new BadRecords();
        Pipeline<Integer> p = Pipeline.range(10).map(i -> {
            if (i % 4 == 1) {
                throw bad(i);
            }
            return i;
        }, 2).prefetch(1).ignoreErrors(skipped);
        assertEquals(List.of(0, 2, 3, 4, 6, 7, 8), p.toList());
        assertEquals(3, skipped.count());
        assertEquals("data.csv line 3: bad", skipped.messages().get(0));
        assertEquals(Pipeline.UNKNOWN, p.cardinality());

        IllegalStateException bug = new IllegalStateException("a bug, not bad data");
        Pipeline<Integer> buggy = Pipeline.range(5).map(i -> {
            if (i == 2) {
                throw bug;
            }
            return i;
        }, 2).ignoreErrors();
        assertSame(bug, assertThrows(IllegalStateException.class, buggy::toList));
    }

    @Test
    void otherErrorsEndThePassAfterThePrefetchDeliversThem() {
        Pipeline<Integer> p = Pipeline.range(10).map(i -> {
            if (i == 2) {
                throw new IllegalStateException("element two");
            }
            return i;
        }).prefetch(4);
        try (PipelineIterator<Integer> it = p.iterator()) {
            assertEquals(0, it.next());
            assertEquals(1, it.next());
            assertEquals("element two", assertThrows(IllegalStateException.class, it::next).getMessage());
            assertFalse(it.hasNext());
        }
    }

    private static long pipelineThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("brisk-pipeline-")).count();
    }

    private static void awaitThreads(long atMost) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (pipelineThreads() > atMost && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(pipelineThreads() <= atMost, pipelineThreads() + " pipeline threads still alive");
    }

    @Test
    void closingAPassStopsItsThreads() throws InterruptedException {
        awaitThreads(0);
        Pipeline<Integer> endless = Pipeline.range(5).repeat().map(i -> i + 1, 3).prefetch(8);
        try (PipelineIterator<Integer> it = endless.iterator()) {
            for (int i = 0; i < 20; i++) {
                assertEquals(i % 5 + 1, it.next());
            }
            assertTrue(pipelineThreads() >= 4, "prefetch thread and three map workers");
        }
        awaitThreads(0);
        // take() closes the passes above it as soon as it has its elements.
        assertEquals(List.of(1, 2, 3), endless.take(3).toList());
        awaitThreads(0);
    }

    @Test
    void anAbandonedPassIsStoppedOnceItIsGarbage() throws InterruptedException {
        awaitThreads(0);
        Pipeline<Integer> endless = Pipeline.range(5).repeat().map(i -> i, 2).prefetch(4);
        PipelineIterator<Integer> it = endless.iterator();
        it.next();
        it = null;
        awaitThreads(0);
    }
}
