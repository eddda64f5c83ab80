package dev.brisk.data;

import java.util.function.BiFunction;

/** {@link Pipeline#zip}: one element of each input, combined, until either input ends. */
final class ZipStage<A, B, R> extends Pipeline<R> {
    private final Pipeline<A> left;
    private final Pipeline<B> right;
    private final BiFunction<? super A, ? super B, ? extends R> combine;

    ZipStage(Pipeline<A> left, Pipeline<B> right, BiFunction<? super A, ? super B, ? extends R> combine) {
        this.left = left;
        this.right = right;
        this.combine = combine;
    }

    @Override
    public long cardinality() {
        long a = left.cardinality();
        long b = right.cardinality();
        if (a >= 0 && b >= 0) {
            return Math.min(a, b);
        }
        if (a == INFINITE) {
            return b;
        }
        if (b == INFINITE) {
            return a;
        }
        return UNKNOWN;
    }

    @Override
    Cursor<R> open(Autotuner tuner) {
        Cursor<A> a = left.open(tuner);
        Cursor<B> b;
        try {
            b = right.open(tuner);
        } catch (RuntimeException | Error e) {
            a.close();
            throw e;
        }
        return new Cursor<>() {
            /** The left element waiting for its partner when the right input threw a bad record. */
            private A held;

            @Override
            public R next() {
                A x = held != null ? held : a.next();
                if (x == null) {
                    return null;
                }
                held = x;
                B y = b.next();
                held = null;
                if (y == null) {
                    return null;
                }
                return ParallelMapCursor.checked(combine.apply(x, y), -1);
            }

            @Override
            public void close() {
                try {
                    a.close();
                } finally {
                    b.close();
                }
            }
        };
    }
}
