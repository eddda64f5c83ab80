package dev.brisk.parallel;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads of the {@link ThreadBudget} held back from the compute kernels for input-pipeline workers. The compute
 * pool sees the change at its next parallel region. Closing gives the threads back; closing twice is harmless.
 */
public final class Reservation implements AutoCloseable {
    private final AtomicInteger total;
    private int threads;
    private boolean closed;

    Reservation(AtomicInteger total, int threads) {
        this.total = total;
        resize(threads);
    }

    /**
     * The number of threads held now.
     *
     * @return the number of threads this reservation takes from the compute kernels
     */
    public synchronized int threads() {
        return threads;
    }

    /**
     * Holds {@code n} threads instead of the current number.
     *
     * @param n the new number of threads, at least 0
     */
    public synchronized void resize(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot reserve a negative number of threads: " + n);
        }
        if (closed) {
            throw new IllegalStateException("reservation already closed");
        }
        total.addAndGet(n - threads);
        threads = n;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            total.addAndGet(-threads);
            threads = 0;
            closed = true;
        }
    }
}
