package dev.brisk.backend;

import dev.brisk.ops.Node;

/**
 * Told when each kernel call of a profiled step started and ended ({@link System#nanoTime()}), with the node it
 * computed. Only profiled steps pass one; a plain (unprofiled) step never reads the clock.
 */
@FunctionalInterface
public interface KernelTimer {
    /**
     * Records one kernel call.
     *
     * @param node the node the call computed
     * @param startNanos {@link System#nanoTime()} when the call started
     * @param endNanos {@link System#nanoTime()} when it returned
     */
    void record(Node node, long startNanos, long endNanos);

    /**
     * As {@link #record(Node, long, long)}, for a call that ran side by side with others on the thread with id
     * {@code threadId}; always told on the thread that runs the plan, after the group of calls has finished.
     *
     * @param node the node the call computed
     * @param startNanos {@link System#nanoTime()} when the call started
     * @param endNanos {@link System#nanoTime()} when it returned
     * @param threadId the id of the thread that ran the call
     */
    default void record(Node node, long startNanos, long endNanos, long threadId) {
        record(node, startNanos, endNanos);
    }
}
