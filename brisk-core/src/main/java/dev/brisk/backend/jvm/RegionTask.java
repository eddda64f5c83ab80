package dev.brisk.backend.jvm;

import dev.brisk.parallel.Parallel;
import dev.brisk.parallel.RangeBody;

/**
 * The arguments of one family of parallel kernel calls, kept per calling thread ({@link Scratch}) and reused, so
 * that starting a region allocates nothing: a lambda that captured the arrays and offsets would be a new object on
 * every call. A kernel fills the named fields of its family's holder and passes a non-capturing body (a constant)
 * that reads them back, once, into the arguments of its range method.
 *
 * <p>Only a thread that is not inside a parallel region may start a region with its holder (the kernels' serial
 * checks ensure that): a nested region would overwrite fields that the outer region's chunks still read. The
 * caller of a region runs only that region's chunks until it ends, so no other kernel fills its holders meanwhile.
 *
 * @param <T> the holder's own class, which its region bodies take
 */
abstract class RegionTask<T extends RegionTask<T>> implements RangeBody {
    /** A region body that reads its arguments from the holder. */
    @FunctionalInterface
    interface Body<T> {
        void run(T args, int from, int to);
    }

    private Body<T> body;

    /** Runs {@code body} over {@code [0, n)} on the shared pool, then drops the holder's references. */
    final void forRange(int n, int grain, Body<T> body) {
        forRange(n, grain, 1, body);
    }

    /** As {@link #forRange(int, int, Body)}, in up to {@code chunksPerThread} chunks per thread. */
    final void forRange(int n, int grain, int chunksPerThread, Body<T> body) {
        this.body = body;
        try {
            Parallel.forRange(n, grain, chunksPerThread, this);
        } finally {
            this.body = null;
            clearReferences();
        }
    }

    /**
     * Drops the references to arrays and other objects, so that a thread's holder keeps no tensor alive after the
     * call that filled it.
     */
    abstract void clearReferences();

    @Override
    @SuppressWarnings("unchecked")
    public final void run(int from, int to) {
        body.run((T) this, from, to);
    }
}
