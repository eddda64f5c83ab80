package dev.brisk.backend.jvm;

import dev.brisk.config.Settings;
import dev.brisk.parallel.Parallel;

/**
 * Whether a loop is worth a parallel region. Kernels test this first and call their range method directly when
 * it is not, so the serial path does not even allocate the lambda handed to {@link Parallel#forRange}.
 */
final class Split {
    /**
     * Chunks per thread for loops whose chunk boundaries change neither the bits nor the work (the columns of a
     * gemm, the images of a convolution). Each thread takes its own chunks first, then helps with the others', so
     * a thread the host slows down (a vCPU whose core is shared) does less of the work instead of holding up the
     * call: W1 at 2 threads lost less to the host's slow spells (BENCHMARKS.md, "Chunks per thread"), and the gemm
     * alone ran as fast as with one chunk per thread. {@code -Dbrisk.chunks=1} gives one chunk per thread.
     */
    static final int CHUNKS_PER_THREAD = Settings.chunks();

    private Split() {
    }

    /** True when {@code n} indexes in chunks of at least {@code grain} would run on this thread anyway. */
    static boolean serial(long n, int grain) {
        // Cheapest test first: Parallel.threads() resolves the budget on every call.
        return n < 2L * grain || Parallel.insideRegion() || Parallel.threads() == 1;
    }
}
