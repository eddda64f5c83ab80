package dev.brisk.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ParallelTest {
    @AfterEach
    void reset() {
        System.clearProperty(ThreadBudget.PROPERTY);
        ThreadBudget.reset();
    }

    @Test
    void everyIndexIsVisitedExactlyOnce() {
        ThreadBudget.set(4);
        for (int round = 0; round < 200; round++) {
            int n = 1 + round * 37;
            AtomicInteger[] hits = new AtomicInteger[n];
            for (int i = 0; i < n; i++) {
                hits[i] = new AtomicInteger();
            }
            Parallel.forRange(n, 1, (from, to) -> {
                for (int i = from; i < to; i++) {
                    hits[i].incrementAndGet();
                }
            });
            for (int i = 0; i < n; i++) {
                assertEquals(1, hits[i].get(), "index " + i + " of " + n);
            }
        }
    }

    @Test
    void severalChunksPerThreadVisitEveryIndexOnceInDistinctChunks() {
        for (int threads : new int[] {2, 3, 4}) {
            ThreadBudget.set(threads);
            for (int round = 0; round < 100; round++) {
                int n = 1 + round * 13;
                int cpt = 1 + round % 4;
                AtomicInteger[] hits = new AtomicInteger[n];
                for (int i = 0; i < n; i++) {
                    hits[i] = new AtomicInteger();
                }
                int chunks = Math.min(threads * cpt, n);
                var seen = ConcurrentHashMap.<Long>newKeySet();
                Parallel.forRange(n, 1, cpt, (from, to) -> {
                    seen.add(((long) from << 32) | to);
                    for (int i = from; i < to; i++) {
                        hits[i].incrementAndGet();
                    }
                });
                for (int i = 0; i < n; i++) {
                    assertEquals(1, hits[i].get(), "index " + i + " of " + n + ", " + threads + " threads x " + cpt);
                }
                if (chunks > 1) {
                    assertEquals(chunks, seen.size(), "chunks of " + n + " on " + threads + " threads x " + cpt);
                }
            }
        }
    }

    /** A thread held up in its first chunk has the rest of its chunks done by the others. */
    @Test
    void chunksOfAStalledThreadAreTakenByTheOthers() throws InterruptedException {
        ThreadBudget.set(2);
        Thread caller = Thread.currentThread();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        var byCaller = ConcurrentHashMap.<Integer>newKeySet();
        AtomicInteger workerChunks = new AtomicInteger();
        Thread releaser = Thread.ofPlatform().daemon().start(() -> {
            // Lets the stalled worker go once the caller has done all it could, or after 5 s.
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (byCaller.size() < 7 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            release.countDown();
        });
        Parallel.forRange(8, 1, 4, (from, to) -> {
            if (Thread.currentThread() == caller) {
                byCaller.add(from);
            } else {
                workerChunks.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        releaser.join();
        assertEquals(8, byCaller.size() + workerChunks.get());
        // Held in its first chunk (or not yet awake), the worker leaves its other three to the caller.
        assertTrue(byCaller.size() >= 7, "the caller took the stalled worker's chunks: " + byCaller);
    }

    @Test
    void nestedRegionsRunInlineOnTheCallingThread() {
        ThreadBudget.set(3);
        AtomicLong sum = new AtomicLong();
        Parallel.forRange(6, 1, (from, to) -> {
            Thread outer = Thread.currentThread();
            assertTrue(Parallel.insideRegion());
            for (int i = from; i < to; i++) {
                Parallel.forRange(100, 1, (a, b) -> {
                    assertEquals(outer, Thread.currentThread(), "nested region left its thread");
                    sum.addAndGet(b - a);
                });
            }
        });
        assertEquals(600, sum.get());
        assertFalse(Parallel.insideRegion());
    }

    @Test
    void usesNoMoreThreadsThanTheBudget() {
        ThreadBudget.set(2);
        var threads = ConcurrentHashMap.<Thread>newKeySet();
        for (int r = 0; r < 50; r++) {
            Parallel.forRange(1000, 1, (from, to) -> threads.add(Thread.currentThread()));
        }
        assertTrue(threads.size() <= 2, "threads used: " + threads);
    }

    /**
     * Reserving threads narrows the regions without stopping a worker, and releasing them starts none: the pool keeps
     * the budget's threads, and the ones left out park (no spinning that would take a core from the pipeline).
     */
    @Test
    void reservationsNarrowRegionsWithoutStartingOrStoppingWorkers() throws InterruptedException {
        ThreadBudget.set(4);
        RangeBody slow = (from, to) -> {
            long until = System.nanoTime() + 20_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        };
        Parallel.forRange(64, 1, slow);
        java.util.Set<Thread> before = computeWorkers();
        assertEquals(3, before.size(), "compute workers: " + before);
        try (Reservation held = ThreadBudget.reserve(2)) {
            var during = ConcurrentHashMap.<Thread>newKeySet();
            for (int r = 0; r < 20; r++) {
                Parallel.forRange(64, 1, (from, to) -> {
                    during.add(Thread.currentThread());
                    slow.run(from, to);
                });
            }
            assertTrue(during.size() <= 2, "threads used with 2 of 4 reserved: " + during);
            for (Thread t : before) {
                if (t.getName().endsWith("-1")) {
                    continue; // the one worker still included
                }
                // A worker left out parks without a timeout once it has seen a region it is not part of.
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (t.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertEquals(Thread.State.WAITING, t.getState(), t.getName());
                assertFalse(during.contains(t), t.getName() + " ran a chunk while left out");
            }
        }
        for (int r = 0; r < 20; r++) {
            Parallel.forRange(64, 1, slow);
        }
        assertEquals(before, computeWorkers(), "workers were replaced");
    }

    /** The live workers of the current pool (a pool being shut down may still have some for a moment). */
    private static java.util.Set<Thread> computeWorkers() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            java.util.Set<Thread> workers = new java.util.HashSet<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("brisk-compute-") && t.isAlive()) {
                    workers.add(t);
                }
            }
            if (workers.size() <= 3 || System.nanoTime() > deadline) {
                return workers;
            }
            Thread.sleep(1);
        }
    }

    @Test
    void exceptionsReachTheCaller() {
        ThreadBudget.set(2);
        RuntimeException e = assertThrows(IllegalStateException.class, () -> Parallel.forRange(10, 1, (a, b) -> {
            throw new IllegalStateException("boom");
        }));
        assertEquals("boom", e.getMessage());
        AtomicInteger after = new AtomicInteger();
        Parallel.forRange(10, 1, (a, b) -> after.addAndGet(b - a));
        assertEquals(10, after.get(), "pool still works after a failure");
    }

    @Test
    void budgetComesFromApiThenPropertyThenProcessors() {
        assertEquals(Runtime.getRuntime().availableProcessors(), ThreadBudget.threads());
        System.setProperty(ThreadBudget.PROPERTY, "3");
        ThreadBudget.reset();
        assertEquals(3, ThreadBudget.threads());
        assertTrue(ThreadBudget.resolve().source().contains("brisk.threads"));
        ThreadBudget.set(5);
        assertEquals(5, ThreadBudget.threads());
        assertEquals("5 threads (API)", ThreadBudget.resolve().toString());
        System.setProperty(ThreadBudget.PROPERTY, "zero");
        ThreadBudget.reset();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ThreadBudget::threads);
        assertTrue(e.getMessage().contains("brisk.threads"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ThreadBudget.set(0));
    }

    /** Idle workers park until the next region instead of waking on a timer (an idle process stays idle). */
    @Test
    void idleWorkersParkWithoutATimeout() throws InterruptedException {
        ThreadBudget.set(3);
        Parallel.forRange(1000, 1, (from, to) -> { });
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            Thread.sleep(20); // past the spin phase (a few milliseconds)
            boolean allWaiting = true;
            int workers = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("brisk-compute-") && t.isAlive()) {
                    workers++;
                    allWaiting &= t.getState() == Thread.State.WAITING;
                }
            }
            if (workers >= 2 && allWaiting) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "compute workers still not parked without a timeout after 5 s");
        }
    }
}
