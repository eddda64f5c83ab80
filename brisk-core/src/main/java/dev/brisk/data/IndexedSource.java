package dev.brisk.data;

import java.util.function.IntFunction;

/** A source of {@code n} elements made on demand from their index (lists, rows of tensors). */
final class IndexedSource<T> extends Pipeline<T> {
    private final int n;
    private final IntFunction<? extends T> element;

    IndexedSource(int n, IntFunction<? extends T> element) {
        if (n < 0) {
            throw new IllegalArgumentException("a source cannot have " + n + " elements");
        }
        this.n = n;
        this.element = element;
    }

    @Override
    public long cardinality() {
        return n;
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        return new Cursor<>() {
            private int next;

            @Override
            public T next() {
                return next < n ? element.apply(next++) : null;
            }

            @Override
            public void close() {
                next = n;
            }
        };
    }
}
