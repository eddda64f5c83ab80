package dev.brisk.backend.jvm;

/** The arguments of a parallel batched transpose: source and destination with their offsets, and the shape. */
final class TransposeArgs extends RegionTask<TransposeArgs> {
    float[] x;
    int xOff;
    float[] y;
    int yOff;
    int rows;
    int cols;

    /** This thread's instance. */
    static TransposeArgs get() {
        return Scratch.get().transposeArgs();
    }

    @Override
    void clearReferences() {
        x = null;
        y = null;
    }
}
