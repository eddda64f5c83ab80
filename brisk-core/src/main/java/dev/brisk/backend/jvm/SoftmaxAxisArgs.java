package dev.brisk.backend.jvm;

/** The arguments of a parallel softmax along a non-last axis ({@link VectorSoftmaxAxis}), split by outer index. */
final class SoftmaxAxisArgs extends RegionTask<SoftmaxAxisArgs> {
    private static final ThreadLocal<SoftmaxAxisArgs> LOCAL = ThreadLocal.withInitial(SoftmaxAxisArgs::new);

    boolean log;
    int length;
    int inner;
    /** The forward pass's input, or the backward pass's forward output. */
    float[] x;
    int xOff;
    float[] dy;
    int dyOff;
    /** The forward pass's output, or the backward pass's input gradient. */
    float[] y;
    int yOff;

    /** This thread's instance. */
    static SoftmaxAxisArgs get() {
        return LOCAL.get();
    }

    @Override
    void clearReferences() {
        x = null;
        dy = null;
        y = null;
    }
}
