package dev.brisk.data;

import java.lang.ref.Cleaner;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * One pass over a {@link Pipeline} (an epoch). Background threads (prefetch, parallel map) start with it and stop
 * when it is exhausted, when {@link #close()} is called, or, for an abandoned iterator, once it is garbage. Not
 * thread-safe: one consumer thread at a time.
 *
 * <p>An element whose record is bad surfaces as a {@link BadRecordException} from {@link #hasNext()} or
 * {@link #next()}; the iterator stays usable and continues with the next element.
 *
 * @param <T> the element type
 */
public final class PipelineIterator<T> implements Iterator<T>, AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    /** What must be closed; kept apart from the iterator so that the cleaner can run once the iterator is gone. */
    private record Pass(Cursor<?> cursor, Autotuner tuner) implements Runnable {
        @Override
        public void run() {
            try {
                cursor.close();
            } finally {
                tuner.close();
            }
        }
    }

    private final Cursor<T> cursor;
    private final Autotuner tuner;
    private final Cleaner.Cleanable cleanable;
    private T lookahead;
    private boolean finished;
    private long elements;
    private long waitNanos;

    PipelineIterator(Cursor<T> cursor, Autotuner tuner) {
        this.cursor = cursor;
        this.tuner = tuner;
        this.cleanable = CLEANER.register(this, new Pass(cursor, tuner));
    }

    @Override
    public boolean hasNext() {
        if (lookahead == null && !finished) {
            long start = System.nanoTime();
            T e;
            try {
                e = cursor.next();
            } finally {
                waitNanos += System.nanoTime() - start;
            }
            if (e == null) {
                finished = true;
                close();
            } else {
                lookahead = e;
                elements++;
                long now = System.nanoTime();
                tuner.delivered(now - start, now);
            }
        }
        return lookahead != null;
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException("pipeline pass finished after " + elements + " elements");
        }
        T e = lookahead;
        lookahead = null;
        return e;
    }

    /**
     * Gives back an element of this pass that nothing reads any more, so that the pipeline may stack a later element
     * into its storage instead of allocating new arrays for every batch. Optional: elements not given back are never
     * reused. {@code Model.fit}, {@code evaluate} and
     * {@code predict} give back every batch once its step is done with it.
     *
     * <p>Only storage that a stage made for this pass and still lends to {@code element} is reused: batches from
     * {@link Pipeline#batch}, also through an in-place {@code Batch.features} map, prefetch, shuffle, take, skip,
     * filter and repeat. Anything else is ignored: elements from {@code cache()}, from other maps or other passes,
     * and elements given back twice. Never give back an element that is still read (by you, or by a batch or
     * collection that views it): its contents will change.
     *
     * @param element an element this iterator delivered
     */
    public void recycle(T element) {
        if (element != null) {
            cursor.recycle(element);
        }
    }

    /**
     * Elements delivered, consumer waiting time and the AUTOTUNE settings of this pass.
     *
     * @return the statistics of this pass so far
     */
    public PipelineStats stats() {
        return tuner.stats(elements, waitNanos);
    }

    /** Stops the pass: background threads end and reserved threads go back to the budget. Idempotent. */
    @Override
    public void close() {
        finished = true;
        lookahead = null;
        cleanable.clean();
    }
}
