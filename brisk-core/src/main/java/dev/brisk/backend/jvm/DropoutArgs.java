package dev.brisk.backend.jvm;

/**
 * The arguments of a parallel dropout call ({@link VectorDropout}): the rate, the hashed seed, the input, the mask
 * and the output.
 */
final class DropoutArgs extends RegionTask<DropoutArgs> {
    float rate;
    long key;
    float[] x;
    int xOff;
    float[] mask;
    int maskOff;
    float[] y;
    int yOff;

    /** This thread's instance. */
    static DropoutArgs get() {
        return Scratch.get().dropoutArgs();
    }

    @Override
    void clearReferences() {
        x = null;
        mask = null;
        y = null;
    }
}
