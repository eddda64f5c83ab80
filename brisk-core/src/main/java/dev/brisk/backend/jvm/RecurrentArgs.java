package dev.brisk.backend.jvm;

/**
 * The arguments of one parallel gate pass of {@link VectorRecurrentGates} (the rows of one step split over
 * threads): the state and scratch arrays, the bias, and the offsets the pass reads.
 */
final class RecurrentArgs extends RegionTask<RecurrentArgs> {
    float[] st;
    float[] sc;
    float[] bias;
    int gs;
    int cPrev;
    int hNext;
    int hPrev;
    int product;
    int recBias;
    int candidate;
    int dh;
    int dc;
    int dgs;
    int drs;
    int b;
    int n;

    /** This thread's instance. */
    static RecurrentArgs get() {
        return Scratch.get().recurrentArgs();
    }

    @Override
    void clearReferences() {
        st = null;
        sc = null;
        bias = null;
    }
}
