package dev.brisk.backend.jvm;

import dev.brisk.ops.UnaryFn;

/**
 * The arguments of a parallel {@code C (+)= op(A) * op(B)} with its fused bias and activation, and how the call
 * splits C into blocks.
 */
final class GemmArgs extends RegionTask<GemmArgs> {
    boolean transA;
    boolean transB;
    boolean accumulate;
    int m;
    int n;
    int k;
    float[] a;
    int aOff;
    int lda;
    float[] b;
    int bOff;
    int ldb;
    float[] c;
    int cOff;
    int ldc;
    float[] bias;
    int biasOff;
    UnaryFn fn;
    float alpha;
    /** The grid split: C's register tiles down and across, and how many groups of them each way. */
    int rowTiles;
    int colTiles;
    int rowGroups;
    int colGroups;

    /** This thread's instance. */
    static GemmArgs get() {
        return Scratch.get().gemmArgs();
    }

    @Override
    void clearReferences() {
        a = null;
        b = null;
        c = null;
        bias = null;
        fn = null;
    }
}
