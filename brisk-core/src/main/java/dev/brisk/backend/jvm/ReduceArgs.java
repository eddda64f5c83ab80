package dev.brisk.backend.jvm;

import dev.brisk.ops.ReduceFn;

/**
 * The arguments of a parallel reduction of {@code [outer, r, inner]} over its middle axis into {@code dst}, either
 * split over the outer rows or, for few outputs, over {@code slots} shares of {@code r}.
 */
final class ReduceArgs extends RegionTask<ReduceArgs> {
    ReduceFn fn;
    float[] x;
    int xOff;
    int r;
    int inner;
    float[] dst;
    int dstOff;
    /** Split over r: how many slots, the outer extent, and the size of one slot's partial result. */
    int slots;
    int outer;
    int size;

    /** This thread's instance. */
    static ReduceArgs get() {
        return Scratch.get().reduceArgs();
    }

    @Override
    void clearReferences() {
        fn = null;
        x = null;
        dst = null;
    }
}
