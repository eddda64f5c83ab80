package dev.brisk.backend.jvm;

import dev.brisk.parallel.Parallel;

/**
 * Whether a loop is worth a parallel region. Kernels test this first and call their range method directly when
 * it is not, so the serial path does not even allocate the lambda handed to {@link Parallel#forRange}.
 */
final class Split {
    private Split() {
    }

    /** True when {@code n} indexes in chunks of at least {@code grain} would run on this thread anyway. */
    static boolean serial(long n, int grain) {
        // Cheapest test first: Parallel.threads() resolves the budget on every call.
        return n < 2L * grain || Parallel.insideRegion() || Parallel.threads() == 1;
    }
}
