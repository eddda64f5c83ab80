package dev.brisk.data;

import java.util.function.IntFunction;
import java.util.function.Supplier;

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
        return new IndexCursor(null);
    }

    /**
     * A pass that gives the elements in the order of a permutation of {@code 0 .. n-1}, made by {@code order} on the
     * first {@link Cursor#next()} (where a buffered shuffle does its work), each element made only as it is given.
     */
    Cursor<T> openPermuted(Supplier<int[]> order) {
        return new IndexCursor(order);
    }

    private final class IndexCursor implements Cursor<T> {
        /** Null for storage order. */
        private Supplier<int[]> orderSource;
        private int[] order;
        private int next;

        IndexCursor(Supplier<int[]> orderSource) {
            this.orderSource = orderSource;
        }

        @Override
        public T next() {
            if (next >= n) {
                return null;
            }
            if (orderSource != null) {
                order = orderSource.get();
                orderSource = null;
            }
            int i = next++;
            return element.apply(order != null ? order[i] : i);
        }

        @Override
        public void close() {
            next = n;
            order = null;
        }
    }
}
