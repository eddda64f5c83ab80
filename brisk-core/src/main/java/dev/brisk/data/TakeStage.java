package dev.brisk.data;

/** {@link Pipeline#take}: the first n elements; the upstream pass is closed as soon as they are out. */
final class TakeStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    private final long n;

    TakeStage(Pipeline<T> upstream, long n) {
        this.upstream = upstream;
        this.n = n;
    }

    @Override
    public long cardinality() {
        long c = upstream.cardinality();
        if (c == INFINITE) {
            return n;
        }
        return c == UNKNOWN ? UNKNOWN : Math.min(c, n);
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        return new PassThrough<T>(upstream.open(tuner)) {
            private long taken;

            @Override
            public T next() {
                if (taken >= n) {
                    in.close();
                    return null;
                }
                T e = in.next();
                if (e != null) {
                    taken++;
                }
                return e;
            }
        };
    }
}
