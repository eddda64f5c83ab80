package dev.brisk.profile;

/**
 * One timed interval of a profiled step ({@link System#nanoTime()} clock): the whole step, one phase of it, or a
 * kernel call, which carries its {@link OpInfo} ({@code op} is null for the others).
 */
public record Span(String name, Category category, int step, long startNanos, long endNanos, OpInfo op) {
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

        /** The lower-case name used as the Chrome-trace category. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public long nanos() {
        return endNanos - startNanos;
    }
}
