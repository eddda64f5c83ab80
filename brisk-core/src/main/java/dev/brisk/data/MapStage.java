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
    /** Whether {@code fn} returns its input transformed in place, so that what is given back goes upstream. */
    private final boolean inPlace;

    MapStage(Pipeline<T> upstream, Mapper<? super T, ? extends R> fn, int parallelism) {
        this(upstream, fn, parallelism, false);
    }

    /**
     * @param inPlace true only when {@code fn} returns its input (or an element over the same storage) and keeps
     *                no reference to it, so that an output given back is upstream's to reuse
     */
    MapStage(Pipeline<T> upstream, Mapper<? super T, ? extends R> fn, int parallelism, boolean inPlace) {
        this.upstream = upstream;
        this.fn = fn;
        this.autotune = parallelism == AUTOTUNE;
        this.parallelism = new AtomicInteger(autotune ? 1 : parallelism);
        this.inPlace = inPlace;
    }

    @Override
    public long cardinality() {
        return upstream.cardinality();
    }

    @Override
    Cursor<R> open(Autotuner tuner) {
        long pass = passes.getAndIncrement();
        Cursor<T> in = upstream.open(tuner);
        Cursor<R> out = parallelism.get() == 0 ? new InlineCursor<>(in, fn, pass)
                : new ParallelMapCursor<>(in, fn, pass, parallelism, autotune, tuner);
        return inPlace ? new Recycling<>(out, in) : out;
    }

    /**
     * The cursor of an in-place map: elements given back go to the stage the map read them from. (An in-place
     * map's output is its input, typed as the output; hence the unchecked cast.)
     */
    private static final class Recycling<T, R> extends Relay<R, R> {
        private final Cursor<T> source;

        Recycling(Cursor<R> mapped, Cursor<T> source) {
            super(mapped);
            this.source = source;
        }

        @Override
        public R next() {
            return in.next();
        }

        @SuppressWarnings("unchecked")
        @Override
        public void recycle(R element) {
            source.recycle((T) element);
        }
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
