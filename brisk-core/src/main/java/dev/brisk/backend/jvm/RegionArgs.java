package dev.brisk.backend.jvm;

import dev.brisk.parallel.Parallel;
import dev.brisk.parallel.RangeBody;

/**
 * The arguments of one parallel kernel call, kept per calling thread and reused, so that starting a region
 * allocates nothing: a lambda that captured the arrays and offsets would be a new object on every call. A kernel
 * fills the slots it needs and passes a non-capturing body (a constant) that reads them back.
 *
 * <p>Only a thread that is not inside a parallel region may use its instance (the kernels' serial checks ensure
 * that): a nested region would overwrite slots that the outer region's chunks still read.
 */
final class RegionArgs implements RangeBody {
    /** A region body that reads its arguments from the slots. */
    @FunctionalInterface
    interface Body {
        void run(RegionArgs args, int from, int to);
    }

    Object o0;
    Object o1;
    Object o2;
    float[] f0;
    float[] f1;
    float[] f2;
    float[] f3;
    float[] f4;
    int i0;
    int i1;
    int i2;
    int i3;
    int i4;
    int i5;
    int i6;
    int i7;
    int i8;
    int i9;
    int i10;
    int i11;
    int i12;
    int i13;
    float s0;
    float s1;
    float s2;
    float s3;
    float s4;
    boolean b0;
    boolean b1;
    boolean b2;
    private Body body;

    /** This thread's instance. */
    static RegionArgs get() {
        return Scratch.get().regionArgs();
    }

    /** Runs {@code body} over {@code [0, n)} on the shared pool, then drops the array references. */
    void forRange(int n, int grain, Body body) {
        forRange(n, grain, 1, body);
    }

    /** As {@link #forRange(int, int, Body)}, in up to {@code chunksPerThread} chunks per thread. */
    void forRange(int n, int grain, int chunksPerThread, Body body) {
        this.body = body;
        try {
            Parallel.forRange(n, grain, chunksPerThread, this);
        } finally {
            this.body = null;
            o0 = null;
            o1 = null;
            o2 = null;
            f0 = null;
            f1 = null;
            f2 = null;
            f3 = null;
            f4 = null;
        }
    }

    @Override
    public void run(int from, int to) {
        body.run(this, from, to);
    }
}
