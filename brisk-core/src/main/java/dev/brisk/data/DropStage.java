package dev.brisk.data;

import java.util.function.Function;

/** {@link Pipeline#filter} and {@link Pipeline#ignoreErrors}: stages that may drop elements. */
final class DropStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    /** Reads upstream up to the next element kept; null at the end. */
    private final Function<Cursor<T>, T> nextKept;

    DropStage(Pipeline<T> upstream, Function<Cursor<T>, T> nextKept) {
        this.upstream = upstream;
        this.nextKept = nextKept;
    }

    @Override
    public long cardinality() {
        return upstream.cardinality() == INFINITE ? INFINITE : UNKNOWN;
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        return new PassThrough<T>(upstream.open(tuner)) {
            @Override
            public T next() {
                return nextKept.apply(in);
            }
        };
    }
}
