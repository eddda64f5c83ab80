package dev.brisk.backend.jvm;

/**
 * The arguments of a parallel call over the rows of up to four matrices of {@code cols} columns each (softmax and
 * its gradient, the losses that work row by row).
 */
final class RowArgs extends RegionTask<RowArgs> {
    /** Log-softmax rather than softmax. */
    boolean log;
    float[] a;
    int aOff;
    float[] b;
    int bOff;
    float[] c;
    int cOff;
    float[] d;
    int dOff;
    int cols;
    /** The row kernel over four matrices, where the caller chooses one. */
    VectorSoftmax.RowsOfFour rowsOfFour;

    /** This thread's instance. */
    static RowArgs get() {
        return Scratch.get().rowArgs();
    }

    @Override
    void clearReferences() {
        a = null;
        b = null;
        c = null;
        d = null;
        rowsOfFour = null;
    }
}
