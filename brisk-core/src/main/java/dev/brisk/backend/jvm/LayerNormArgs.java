package dev.brisk.backend.jvm;

/**
 * The arguments of one layer normalization kernel ({@link LayerNormLoops}) over {@code [rows, cols]}, split over
 * rows (the normalization and the input's gradient) or over blocks of rows (the parameters' sums).
 */
final class LayerNormArgs extends RegionTask<LayerNormArgs> {
    private static final ThreadLocal<LayerNormArgs> LOCAL = ThreadLocal.withInitial(LayerNormArgs::new);

    /** The vector backend's loops (split over the pool, sums in vectors), or the scalar backend's. */
    boolean vector;
    float epsilon;
    float[] x;
    int xOff;
    float[] dy;
    int dyOff;
    float[] gamma;
    int gammaOff;
    float[] beta;
    int betaOff;
    float[] out;
    int outOff;
    int rows;
    int cols;
    /** Each block's sums: {@code 2 cols} per block (dy, then dy times the normalized x). */
    double[] blockSums = new double[0];

    /** This thread's instance. */
    static LayerNormArgs get() {
        return LOCAL.get();
    }

    @Override
    void clearReferences() {
        x = null;
        dy = null;
        gamma = null;
        beta = null;
        out = null;
    }
}
