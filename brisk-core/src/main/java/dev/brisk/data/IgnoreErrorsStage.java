package dev.brisk.data;

import java.util.function.Consumer;

/** {@link Pipeline#ignoreErrors}: drops elements whose record was bad and reports them. */
final class IgnoreErrorsStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    private final Consumer<? super BadRecordException> onError;

    IgnoreErrorsStage(Pipeline<T> upstream, Consumer<? super BadRecordException> onError) {
        this.upstream = upstream;
        this.onError = onError;
    }

    @Override
    public long cardinality() {
        long c = upstream.cardinality();
        return c == INFINITE ? INFINITE : UNKNOWN;
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        Cursor<T> in = upstream.open(tuner);
        return new Cursor<>() {
            @Override
            public T next() {
                while (true) {
                    try {
                        return in.next();
                    } catch (BadRecordException e) {
                        onError.accept(e);
                    }
                }
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
