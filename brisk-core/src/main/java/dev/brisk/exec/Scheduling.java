package dev.brisk.exec;

import dev.brisk.parallel.Parallel;

/**
 * The last planner pass: the order the bound instructions run in. Plan order, with independent instructions
 * grouped to run side by side where {@link Schedule} finds that pays; which instructions are independent follows
 * from the storage each reads and writes ({@link DependencyGraph}).
 */
final class Scheduling {
    private Scheduling() {
    }

    /** The schedule of {@code bound} for the pool's thread budget. */
    static Schedule of(Binding bound, KernelBinder.Buffers buffers) {
        return of(bound, buffers, Parallel.threads());
    }

    /** The schedule of {@code bound} for {@code threads} lanes. */
    static Schedule of(Binding bound, KernelBinder.Buffers buffers, int threads) {
        return Schedule.build(bound.code(), bound.nodes(), () -> dependencies(bound, buffers), threads);
    }

    /** Which of {@code bound}'s instructions depend on which, through the storage they read and write. */
    static DependencyGraph dependencies(Binding bound, KernelBinder.Buffers buffers) {
        return DependencyGraph.of(bound.nodes(), bound.outputs(), buffers);
    }
}
