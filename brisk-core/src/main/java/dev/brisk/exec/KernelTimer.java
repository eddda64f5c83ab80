package dev.brisk.exec;

import dev.brisk.ops.Node;

/**
 * Told when each kernel call of a profiled step started and ended ({@link System#nanoTime()}), with the node it
 * computed. Only profiled steps pass one; the plain {@link Plan#run()} never reads the clock.
 */
@FunctionalInterface
public interface KernelTimer {
    void record(Node node, long startNanos, long endNanos);
}
