package dev.brisk.backend.jvm;

/**
 * The arguments of a parallel permutation of axes ({@link VectorPermute}): runs of {@code run} contiguous elements,
 * each copied from the input offset its output index gives.
 */
final class PermuteArgs extends RegionTask<PermuteArgs> {
    private static final ThreadLocal<PermuteArgs> LOCAL = ThreadLocal.withInitial(PermuteArgs::new);

    float[] x;
    int xOff;
    float[] y;
    int yOff;
    /** Elements copied together: the trailing axes the permutation leaves in place. */
    int run;
    /** Output axes before the run. */
    int axes;
    /** Per output axis before the run: its size, then (from {@code axes} on) the input stride it steps by. */
    int[] sizesAndStrides = new int[0];

    /** This thread's instance. */
    static PermuteArgs get() {
        return LOCAL.get();
    }

    @Override
    void clearReferences() {
        x = null;
        y = null;
    }
}
