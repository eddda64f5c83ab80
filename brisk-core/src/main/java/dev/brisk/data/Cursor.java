package dev.brisk.data;

/**
 * One pass of a pipeline stage over its elements. Not thread-safe: one thread calls {@link #next()} at a time
 * (stages with background threads hand elements over internally). A cursor stays usable after {@code next()}
 * throws a {@link BadRecordException}: the following call continues with the next record.
 */
interface Cursor<T> extends AutoCloseable {

    /** The next element, or null once the pass is over. */
    T next();

    /** Stops the pass and any threads it started; idempotent. */
    @Override
    void close();
}
