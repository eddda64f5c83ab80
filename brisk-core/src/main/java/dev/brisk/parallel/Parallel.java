package dev.brisk.parallel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared compute pool. Kernels split loops with {@link #forRange}; the calling thread works too, a region
 * started inside another region runs inline, and the pool never holds more than the budget minus one threads.
 *
 * <p>The pool is sized by the whole budget and rebuilt only when {@link ThreadBudget#threads()} changes. A region
 * runs on {@link ThreadBudget#computeThreads()} of them: threads an input pipeline (or the first training step)
 * reserves stay parked, without spinning, so reserving and releasing threads starts and stops none. Each thread of a region has a home run of
 * consecutive chunks, the ones a static split would give it, and takes them in order through an atomic counter (no
 * task objects are allocated per region); a thread that runs out of its own takes the next chunks of the others'.
 * So on a quiet machine every thread works on the same part of the data from call to call (its caches stay warm),
 * and a thread the host slows down, or that wakes late, has its chunks done by the others.
 */
public final class Parallel {
    private static final ThreadLocal<Boolean> INSIDE = ThreadLocal.withInitial(() -> Boolean.FALSE);
    private static final Object LOCK = new Object();
    /**
     * How long an idle worker spins before it parks. Long enough to span the host-side work between two training
     * steps (metrics, callbacks, the next batch): waking a parked worker can take longer than that work, and then
     * the first kernel of every step runs mostly on the calling thread (docs/benchmark-log.md).
     */
    private static final long SPIN_NANOS = 2_000_000;
    private static volatile Pool pool;
    /** Longs between two threads' chunk counters: one 128-byte line pair each, so they never share a cache line. */
    private static final int PAD = 16;

    private Parallel() {
    }

    /**
     * Runs {@code body} over {@code [0, n)} in chunks of at least {@code grain} indexes, on up to
     * {@link ThreadBudget#computeThreads()} threads.
     *
     * @param n the number of indexes
     * @param grain the smallest chunk worth a thread; fewer than {@code 2 * grain} indexes run on the calling thread
     * @param body the loop body, called once per chunk; it must be safe to call from several threads at once
     */
    public static void forRange(int n, int grain, RangeBody body) {
        forRange(n, grain, 1, body);
    }

    /**
     * As {@link #forRange(int, int, RangeBody)}, cut into up to {@code chunksPerThread} chunks per thread, which the
     * threads take as they finish: for loops whose chunk boundaries cost nothing, so that a thread slowed down by
     * the host (a vCPU sharing its core) ends up doing less of the work instead of holding up the region.
     *
     * @param n the number of indexes
     * @param grain the smallest chunk worth a thread
     * @param chunksPerThread chunks per thread, at least 1
     * @param body the loop body, called once per chunk; it must be safe to call from several threads at once
     */
    public static void forRange(int n, int grain, int chunksPerThread, RangeBody body) {
        if (n <= 0) {
            return;
        }
        int threads = ThreadBudget.computeThreads();
        int chunks = (int) Math.min((long) threads * Math.max(1, chunksPerThread), Math.max(1, n / Math.max(1, grain)));
        if (chunks <= 1 || threads == 1 || INSIDE.get()) {
            body.run(0, n);
            return;
        }
        Pool p = pool(ThreadBudget.threads());
        synchronized (p) {
            p.run(n, chunks, Math.min(threads, p.size), body);
        }
    }

    /**
     * The number of threads a region may use now.
     *
     * @return the number of threads, at least 1
     */
    public static int threads() {
        return ThreadBudget.computeThreads();
    }

    /**
     * True on a thread that is already running a parallel region.
     *
     * @return whether the current thread is inside {@link #forRange}; a nested region there runs on the calling thread
     */
    public static boolean insideRegion() {
        return INSIDE.get();
    }

    private static Pool pool(int threads) {
        Pool p = pool;
        if (p == null || p.size != threads) {
            synchronized (LOCK) {
                p = pool;
                if (p == null || p.size != threads) {
                    if (p != null) {
                        p.shutdown();
                    }
                    p = new Pool(threads);
                    pool = p;
                }
            }
        }
        return p;
    }

    /** A fixed group of workers that all take chunks of the current region. */
    private static final class Pool {
        final int size;
        final Thread[] workers;
        /**
         * Per thread (0 the caller, i the i-th worker), at index {@code thread * PAD}: high 32 bits the region's
         * generation, low 32 bits how many of that thread's home chunks are taken. A stale worker, still in the
         * loop of an earlier region, sees another generation and cannot take chunks of the new one.
         */
        final AtomicLongArray taken;
        final AtomicInteger pending = new AtomicInteger();
        volatile RangeBody body;
        volatile int n;
        volatile int chunks;
        /** Threads of the current region: the caller and workers 1 to {@code participants - 1}. */
        volatile int participants;
        volatile int generation;
        volatile boolean stopped;
        volatile Thread waiter;
        volatile Throwable failure;

        Pool(int size) {
            this.size = size;
            this.taken = new AtomicLongArray(size * PAD);
            this.workers = new Thread[size - 1];
            for (int i = 0; i < workers.length; i++) {
                int self = i + 1;
                Thread t = new Thread(() -> workerLoop(self), "brisk-compute-" + self);
                t.setDaemon(true);
                workers[i] = t;
                t.start();
            }
        }

        void run(int n, int chunks, int participants, RangeBody body) {
            // The counters move to the new generation first, so that a worker still in the loop of the last region
            // can take no chunk while the fields below change; workers see the fields once generation is published.
            int g = generation + 1;
            for (int t = 0; t < size; t++) {
                taken.set(t * PAD, (long) g << 32);
            }
            this.n = n;
            this.chunks = chunks;
            this.participants = participants;
            this.body = body;
            this.failure = null;
            this.waiter = Thread.currentThread();
            pending.set(chunks);
            generation = g;
            for (int w = 0; w < participants - 1; w++) {
                LockSupport.unpark(workers[w]);
            }
            INSIDE.set(Boolean.TRUE);
            try {
                work(g, 0);
            } finally {
                INSIDE.set(Boolean.FALSE);
            }
            int spins = 0;
            while (pending.get() > 0) {
                if (++spins < 2000) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(this, 50_000);
                }
            }
            this.body = null;
            Throwable f = failure;
            if (f != null) {
                if (f instanceof RuntimeException re) {
                    throw re;
                }
                if (f instanceof Error err) {
                    throw err;
                }
                throw new RuntimeException(f);
            }
        }

        /** Runs chunks of region {@code gen}: thread {@code self}'s own first, then the others' that are left. */
        private void work(int gen, int self) {
            RangeBody b = body;
            int total = n;
            int count = chunks;
            int threads = participants;
            if (self >= threads) {
                return;
            }
            for (int k = 0; k < threads; k++) {
                int owner = (self + k) % threads;
                int first = (int) ((long) count * owner / threads);
                int end = (int) ((long) count * (owner + 1) / threads);
                while (true) {
                    long v = taken.get(owner * PAD);
                    int c = first + (int) v;
                    if ((int) (v >>> 32) != gen) {
                        return;
                    }
                    if (c >= end) {
                        break;
                    }
                    if (!taken.compareAndSet(owner * PAD, v, v + 1)) {
                        continue;
                    }
                    long from = (long) total * c / count;
                    long to = (long) total * (c + 1) / count;
                    try {
                        b.run((int) from, (int) to);
                    } catch (Throwable t) {
                        failure = t;
                    }
                    if (pending.decrementAndGet() == 0) {
                        LockSupport.unpark(waiter);
                    }
                }
            }
        }

        private void workerLoop(int self) {
            INSIDE.set(Boolean.TRUE);
            int seen = 0;
            // Only a worker that took part in the last region spins for the next one; one left out (its thread
            // reserved by an input pipeline) parks until a region includes it again.
            boolean included = true;
            while (!stopped) {
                int g = generation;
                if (g == seen) {
                    long spinUntil = included ? System.nanoTime() + SPIN_NANOS : 0;
                    while (generation == seen && !stopped) {
                        if (System.nanoTime() < spinUntil) {
                            Thread.onSpinWait();
                        } else {
                            // Parked until there is work: run() unparks the workers it includes, shutdown() all.
                            // A timed park would wake an idle process every few milliseconds for nothing.
                            LockSupport.park(this);
                        }
                    }
                    continue;
                }
                seen = g;
                included = self < participants;
                if (included && body != null) {
                    work(g, self);
                }
            }
        }

        void shutdown() {
            stopped = true;
            for (Thread w : workers) {
                LockSupport.unpark(w);
            }
        }
    }
}
