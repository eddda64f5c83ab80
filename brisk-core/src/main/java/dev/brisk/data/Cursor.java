package dev.brisk.data;

/**
 * One pass of a pipeline stage over its elements. Not thread-safe: one thread calls {@link #next()} at a time
 * (stages with background threads hand elements over internally). A cursor stays usable after {@code next()}
 * throws a {@link BadRecordException}: the following call continues with the next record.
 */
interface Cursor<T> extends AutoCloseable {

    /** The next element, or null once the pass is over. */
    T next();

    /**
     * Tells the stage that made {@code element} (delivered by this cursor) that nothing reads it any more, so its
     * storage may hold a later element. A stage forwards it only to a stage whose element this is (its storage
     * unchanged); the default keeps nothing. Thread-safe, unlike {@link #next()}: the consumer may give back
     * while a producer thread runs the stages above, and after the pass is closed (then it does nothing).
     */
    default void recycle(T element) {
    }

    /** Stops the pass and any threads it started; idempotent. */
    @Override
    void close();
}
