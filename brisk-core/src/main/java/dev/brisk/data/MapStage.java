package dev.brisk.data;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** {@link Pipeline#map}: inline on the pulling thread (parallelism 0), or on worker threads keeping the order. */
final class MapStage<R, T> extends Pipeline<R> {
    private final Pipeline<T> upstream;
    private final Mapper<? super T, ? extends R> fn;
    private final boolean autotune;
    /** Workers of the next pass: fixed, or AUTOTUNE's current choice (kept across passes). */
    private final AtomicInteger parallelism;
    private final AtomicLong passes = new AtomicLong();

    MapStage(Pipeline<T> upstream, Mapper<? super T, ? extends R> fn, int parallelism) {
        this.upstream = upstream;
        this.fn = fn;
        this.autotune = parallelism == AUTOTUNE;
        this.parallelism = new AtomicInteger(autotune ? 1 : parallelism);
    }

    @Override
    public long cardinality() {
        return upstream.cardinality();
    }

    @Override
    Cursor<R> open(Autotuner tuner) {
        long pass = passes.getAndIncrement();
        Cursor<T> in = upstream.open(tuner);
        if (parallelism.get() == 0) {
            return new InlineCursor<>(in, fn, pass);
        }
        return new ParallelMapCursor<>(in, fn, pass, parallelism, autotune, tuner);
    }

    /** Sequential map on the calling thread. */
    private static final class InlineCursor<T, R> extends Relay<T, R> {
        private final Mapper<? super T, ? extends R> fn;
        private final long pass;
        private long index;

        InlineCursor(Cursor<T> in, Mapper<? super T, ? extends R> fn, long pass) {
            super(in);
            this.fn = fn;
            this.pass = pass;
        }

        @Override
        public R next() {
            T e = in.next();
            if (e == null) {
                return null;
            }
            long i = index++;
            return ParallelMapCursor.checked(fn.apply(e, pass, i), i);
        }
    }
}
