package dev.brisk.parallel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared compute pool. Kernels split loops with {@link #forRange}; the calling thread works too, a region
 * started inside another region runs inline, and the pool never holds more than the budget minus one threads.
 *
 * <p>The pool is resized lazily when {@link ThreadBudget} changes. Work is handed out in chunks through an atomic
 * counter, so no task objects are allocated per region.
 */
public final class Parallel {
    private static final ThreadLocal<Boolean> INSIDE = ThreadLocal.withInitial(() -> Boolean.FALSE);
    private static final Object LOCK = new Object();
    /**
     * How long an idle worker spins before it parks. Long enough to span the host-side work between two training
     * steps (metrics, callbacks, the next batch: 0.3-0.5 ms on W1): a parked worker took 0.4-0.6 ms to wake on the
     * 2-vCPU VM measured, so the first kernel of every step ran mostly on the calling thread (W1's first-layer
     * forward product: 1.1-1.3 ms on two threads after a 0.4 ms pause, 0.69 ms without one).
     */
    private static final long SPIN_NANOS = 2_000_000;
    private static volatile Pool pool;

    private Parallel() {
    }

    /**
     * Runs {@code body} over {@code [0, n)} in chunks of at least {@code grain} indexes, on up to
     * {@link ThreadBudget#computeThreads()} threads.
     */
    public static void forRange(int n, int grain, RangeBody body) {
        if (n <= 0) {
            return;
        }
        int threads = ThreadBudget.computeThreads();
        int chunks = Math.min(threads, Math.max(1, n / Math.max(1, grain)));
        if (chunks <= 1 || INSIDE.get()) {
            body.run(0, n);
            return;
        }
        Pool p = pool(threads);
        synchronized (p) {
            p.run(n, chunks, body);
        }
    }

    /** The number of threads a region may use now. */
    public static int threads() {
        return ThreadBudget.computeThreads();
    }

    /** True on a thread that is already running a parallel region. */
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
        /** High 32 bits: region generation; low 32 bits: next chunk. Stale workers cannot take new chunks. */
        final AtomicLong ticket = new AtomicLong();
        final AtomicInteger pending = new AtomicInteger();
        volatile RangeBody body;
        volatile int n;
        volatile int chunks;
        volatile int generation;
        volatile boolean stopped;
        volatile Thread waiter;
        volatile Throwable failure;

        Pool(int size) {
            this.size = size;
            this.workers = new Thread[size - 1];
            for (int i = 0; i < workers.length; i++) {
                Thread t = new Thread(this::workerLoop, "brisk-compute-" + (i + 1));
                t.setDaemon(true);
                workers[i] = t;
                t.start();
            }
        }

        void run(int n, int chunks, RangeBody body) {
            this.n = n;
            this.chunks = chunks;
            this.body = body;
            this.failure = null;
            this.waiter = Thread.currentThread();
            pending.set(chunks);
            int g = generation + 1;
            ticket.set((long) g << 32);
            generation = g;
            for (Thread w : workers) {
                LockSupport.unpark(w);
            }
            INSIDE.set(Boolean.TRUE);
            try {
                work(g);
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

        private void work(int gen) {
            RangeBody b = body;
            int total = n;
            int count = chunks;
            while (true) {
                long v = ticket.get();
                int c = (int) v;
                if ((int) (v >>> 32) != gen || c >= count) {
                    return;
                }
                if (!ticket.compareAndSet(v, v + 1)) {
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

        private void workerLoop() {
            INSIDE.set(Boolean.TRUE);
            int seen = 0;
            while (!stopped) {
                int g = generation;
                if (g == seen) {
                    long spinUntil = System.nanoTime() + SPIN_NANOS;
                    while (generation == seen && !stopped) {
                        if (System.nanoTime() < spinUntil) {
                            Thread.onSpinWait();
                        } else {
                            LockSupport.parkNanos(this, 1_000_000);
                        }
                    }
                    continue;
                }
                seen = g;
                if (body != null) {
                    work(g);
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
