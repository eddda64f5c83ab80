package dev.brisk.backend.jvm;

/**
 * The arguments of one batch normalization kernel ({@link BatchNormLoops}) over {@code [rows, channels]}, split
 * over blocks of rows (the sums) or over rows (the elementwise passes).
 */
final class BatchNormArgs extends RegionTask<BatchNormArgs> {
    private static final ThreadLocal<BatchNormArgs> LOCAL = ThreadLocal.withInitial(BatchNormArgs::new);

    float[] x;
    int xOff;
    float[] dy;
    int dyOff;
    float[] out;
    int outOff;
    float[] stats;
    int statsOff;
    int rows;
    int channels;
    /** Per-channel values in double: the mean for the centered squares, coefficients for the elementwise passes. */
    double[] perChannel;
    /** Each block's sums: one or two rows of {@code channels} per block. */
    double[] blockSums;
    boolean training;

    /** This thread's instance. */
    static BatchNormArgs get() {
        return LOCAL.get();
    }

    @Override
    void clearReferences() {
        x = null;
        dy = null;
        out = null;
        stats = null;
    }
}
