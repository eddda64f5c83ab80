package dev.brisk.data;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link Pipeline#prefetch}: a producer thread runs the stages above and keeps up to a buffer's worth of elements
 * ready. Failures travel through the buffer in order; after one that is not a bad record the producer stops.
 */
final class PrefetchStage<T> extends Pipeline<T> {
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    private static final Object END = new Object();

    /** A failure in the buffer, delivered in its place. */
    private record Failure(RuntimeException error) {
    }

    private final Pipeline<T> upstream;
    private final boolean autotune;
    /** The buffer size of the next pass: fixed, or AUTOTUNE's current choice (kept across passes). */
    private final AtomicInteger depth;

    PrefetchStage(Pipeline<T> upstream, int bufferSize) {
        this.upstream = upstream;
        this.autotune = bufferSize == AUTOTUNE;
        this.depth = new AtomicInteger(autotune ? 2 : bufferSize);
    }

    @Override
    public long cardinality() {
        return upstream.cardinality();
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        if (autotune) {
            tuner.registerPrefetch(depth);
        }
        return new PrefetchCursor(upstream.open(tuner), tuner);
    }

    private final class PrefetchCursor implements Cursor<T> {
        private final ArrayDeque<Object> buffer = new ArrayDeque<>();
        private final Thread producer;
        private final Cursor<T> in;
        private volatile boolean closed;
        private boolean ended;

        PrefetchCursor(Cursor<T> in, Autotuner tuner) {
            this.in = in;
            this.producer = new Thread(this::produce, "brisk-pipeline-prefetch-" + THREAD_IDS.incrementAndGet());
            producer.setDaemon(true);
            tuner.register(producer);
            producer.start();
        }

        private void produce() {
            try {
                while (!closed) {
                    Object item;
                    boolean last = false;
                    try {
                        T e = in.next();
                        item = e == null ? END : e;
                        last = e == null;
                    } catch (Cancelled c) {
                        return;
                    } catch (BadRecordException e) {
                        item = new Failure(e);
                    } catch (RuntimeException e) {
                        item = new Failure(e);
                        last = true;
                    }
                    if (!put(item) || last) {
                        if (item instanceof Failure) {
                            put(END);
                        }
                        return;
                    }
                }
            } catch (Error e) {
                put(new Failure(new IllegalStateException("prefetch thread failed: " + e, e)));
                put(END);
                throw e;
            } finally {
                in.close();
            }
        }

        /** Waits for room and appends; false when the pass was closed meanwhile. */
        private synchronized boolean put(Object item) {
            while (buffer.size() >= depth.get() && item != END && !closed) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    return false;
                }
            }
            if (closed) {
                return false;
            }
            buffer.add(item);
            notifyAll();
            return true;
        }

        @Override
        public synchronized T next() {
            if (ended || closed) {
                return null;
            }
            while (buffer.isEmpty()) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Cancelled();
                }
                if (closed) {
                    return null;
                }
            }
            Object item = buffer.poll();
            notifyAll();
            if (item == END) {
                ended = true;
                return null;
            }
            if (item instanceof Failure f) {
                throw f.error();
            }
            @SuppressWarnings("unchecked")
            T e = (T) item;
            return e;
        }

        /** Not synchronized: giving back must not wait while the producer holds the buffer's lock. */
        @Override
        public void recycle(T element) {
            in.recycle(element);
        }

        @Override
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                buffer.clear();
                notifyAll();
            }
            producer.interrupt();
        }
    }
}
