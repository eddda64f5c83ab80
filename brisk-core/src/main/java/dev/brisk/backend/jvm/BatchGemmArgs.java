package dev.brisk.backend.jvm;

/**
 * The arguments of a batched product split over its batch entries ({@link VectorKernels#batchedGemm}): each chunk
 * runs its entries' products serially, through its own thread's {@link GemmArgs}.
 */
final class BatchGemmArgs extends RegionTask<BatchGemmArgs> {
    private static final ThreadLocal<BatchGemmArgs> LOCAL = ThreadLocal.withInitial(BatchGemmArgs::new);

    boolean transA;
    boolean transB;
    int m;
    int n;
    int k;
    float[] a;
    int aOff;
    int aStride;
    float[] b;
    int bOff;
    int bStride;
    float[] c;
    int cOff;

    /** This thread's instance. */
    static BatchGemmArgs get() {
        return LOCAL.get();
    }

    @Override
    void clearReferences() {
        a = null;
        b = null;
        c = null;
    }
}
