package dev.brisk.data;

import java.util.function.Predicate;

/** {@link Pipeline#filter}. */
final class FilterStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    private final Predicate<? super T> predicate;

    FilterStage(Pipeline<T> upstream, Predicate<? super T> predicate) {
        this.upstream = upstream;
        this.predicate = predicate;
    }

    @Override
    public long cardinality() {
        return upstream.cardinality() == INFINITE ? INFINITE : UNKNOWN;
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        Cursor<T> in = upstream.open(tuner);
        return new Cursor<>() {
            @Override
            public T next() {
                T e;
                do {
                    e = in.next();
                } while (e != null && !predicate.test(e));
                return e;
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
