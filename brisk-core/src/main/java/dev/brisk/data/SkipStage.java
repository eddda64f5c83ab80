package dev.brisk.data;

/** {@link Pipeline#skip}: all but the first n elements. */
final class SkipStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    private final long n;

    SkipStage(Pipeline<T> upstream, long n) {
        this.upstream = upstream;
        this.n = n;
    }

    @Override
    public long cardinality() {
        return minus(upstream.cardinality(), n);
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        return new PassThrough<T>(upstream.open(tuner)) {
            private long skipped;

            @Override
            public T next() {
                while (skipped < n) {
                    if (in.next() == null) {
                        skipped = n;
                        return null;
                    }
                    skipped++;
                }
                return in.next();
            }
        };
    }
}
