package dev.brisk.data;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A map run by worker threads with the input order kept. The consumer pulls inputs from upstream into a window of
 * slots (twice the parallelism), workers fill the slots in any order, and the consumer hands results out in slot
 * order, waiting for the oldest one when it is not done yet. A failure (of the map function, or of upstream while
 * pulling) is kept in its slot and thrown when that slot's turn comes, so errors surface at their position.
 */
final class ParallelMapCursor<T, R> implements Cursor<R> {
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    /** One element in flight: its input, then its result or failure. */
    private static final class Slot<T, R> {
        final long index;
        T input;
        R result;
        Throwable failure;
        volatile boolean done;
        volatile Thread waiter;

        Slot(T input, long index) {
            this.input = input;
            this.index = index;
        }

        static <T, R> Slot<T, R> failed(RuntimeException e) {
            Slot<T, R> s = new Slot<>(null, -1);
            s.failure = e;
            s.done = true;
            return s;
        }

        void finish() {
            input = null;
            done = true;
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    private final Cursor<T> upstream;
    private final Mapper<? super T, ? extends R> fn;
    private final long pass;
    private final AtomicInteger parallelism;
    private final Autotuner.MapLoad load;
    private final Autotuner tuner;
    private final ArrayDeque<Slot<T, R>> window = new ArrayDeque<>();
    private final LinkedBlockingQueue<Slot<T, R>> work = new LinkedBlockingQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean closed;
    private boolean upstreamDone;
    private long index;

    ParallelMapCursor(Cursor<T> upstream, Mapper<? super T, ? extends R> fn, long pass, AtomicInteger parallelism,
                      boolean autotune, Autotuner tuner) {
        this.upstream = upstream;
        this.fn = fn;
        this.pass = pass;
        this.parallelism = parallelism;
        this.tuner = tuner;
        this.load = new Autotuner.MapLoad(parallelism);
        if (autotune) {
            tuner.register(load);
        }
    }

    @Override
    public R next() {
        fill();
        Slot<T, R> head = window.poll();
        if (head == null) {
            return null;
        }
        fill();
        await(head);
        if (head.failure != null) {
            if (head.failure instanceof RuntimeException re) {
                throw re;
            }
            if (head.failure instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("map function failed on element " + head.index, head.failure);
        }
        R r = head.result;
        head.result = null;
        return r;
    }

    /** Starts missing workers and pulls inputs until the window is full or upstream ends. */
    private void fill() {
        int p = parallelism.get();
        while (workers.size() < p) {
            startWorker();
        }
        while (!upstreamDone && window.size() < 2 * p) {
            Slot<T, R> s;
            try {
                T e = upstream.next();
                if (e == null) {
                    upstreamDone = true;
                    return;
                }
                s = new Slot<>(e, index++);
                work.add(s);
            } catch (Cancelled c) {
                throw c;
            } catch (RuntimeException e) {
                s = Slot.failed(e);
                upstreamDone = !(e instanceof BadRecordException);
            }
            window.add(s);
        }
    }

    private void await(Slot<T, R> s) {
        if (s.done) {
            return;
        }
        s.waiter = Thread.currentThread();
        while (!s.done) {
            if (closed || Thread.currentThread().isInterrupted()) {
                throw new Cancelled();
            }
            LockSupport.parkNanos(this, 1_000_000L);
        }
    }

    private void startWorker() {
        Thread t = new Thread(this::work, "brisk-pipeline-map-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        workers.add(t);
        tuner.register(t);
        t.start();
    }

    private void work() {
        try {
            while (!closed) {
                Slot<T, R> s = work.take();
                long start = System.nanoTime();
                try {
                    s.result = checked(fn.apply(s.input, pass, s.index), s.index);
                } catch (Throwable e) {
                    s.failure = e;
                }
                load.busyNanos.addAndGet(System.nanoTime() - start);
                s.finish();
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** {@code result}, refusing null: pipelines have no null elements. */
    static <R> R checked(R result, long index) {
        if (result == null) {
            throw new NullPointerException("map function returned null for element " + index);
        }
        return result;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Thread t : workers) {
            t.interrupt();
        }
        work.clear();
        window.clear();
        upstream.close();
    }
}
