package dev.brisk.profile;

/**
 * One timed interval of a profiled step ({@link System#nanoTime()} clock): the whole step, one phase of it, or a
 * kernel call, which carries its {@link OpInfo} ({@code op} is null for the others). {@code thread} is the id of
 * the thread of a kernel call that ran side by side with others, 0 for spans on the training thread.
 *
 * @param name what ran: the step, the phase's name, or the kernel's op
 * @param category what kind of time it is
 * @param step the profiled step it belongs to, counted from 1 over the fit
 * @param startNanos the start, on the {@link System#nanoTime()} clock
 * @param endNanos the end, on the same clock
 * @param op the kernel call's description, or null for steps and phases
 * @param thread the thread id of a kernel call that ran side by side with others, else 0
 */
public record Span(String name, Category category, int step, long startNanos, long endNanos, OpInfo op,
                   long thread) {
    /**
     * A span on the training thread.
     *
     * @param name what ran
     * @param category what kind of time it is
     * @param step the profiled step, counted from 1 over the fit
     * @param startNanos the start, on the {@link System#nanoTime()} clock
     * @param endNanos the end, on the same clock
     * @param op the kernel call's description, or null
     */
    public Span(String name, Category category, int step, long startNanos, long endNanos, OpInfo op) {
        this(name, category, step, startNanos, endNanos, op, 0);
    }

    /** What a span times. */
    public enum Category {
        /** A whole training step, from asking for its batch to the last callback. */
        STEP,
        /** Waiting for the next batch. */
        INPUT,
        /** Host-side work around the step: metrics, callbacks. */
        HOST,
        /** The train step itself: feeding the batch and running the kernels. */
        COMPUTE,
        /** One kernel call. */
        KERNEL;

        /**
         * The lower-case name used as the Chrome-trace category.
         *
         * @return the category's name in lower case, e.g. {@code compute}
         */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The span's length.
     *
     * @return {@code endNanos - startNanos}, in nanoseconds
     */
    public long nanos() {
        return endNanos - startNanos;
    }
}
