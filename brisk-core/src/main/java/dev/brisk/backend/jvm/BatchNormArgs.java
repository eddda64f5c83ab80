package dev.brisk.backend.jvm;

import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;

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
    /** Relu's output that gates {@code dy} (its gradient taken on the fly), or null. */
    float[] gate;
    int gateOff;
    /** Whether {@code dy} is gated by relu of this normalization, recomputed from {@code x} and the coefficients. */
    boolean underRelu;
    float[] out;
    int outOff;
    int rows;
    int channels;
    /** Per-channel double sums and means of the statistics and parameter gradients. */
    double[] perChannel;
    /** Each block's sums: one or two rows of {@code channels} per block. */
    double[] blockSums;
    boolean training;
    /** Per-channel float coefficients of the elementwise passes (means, scales, offsets). */
    float[] coefficients = new float[0];
    /** The activation applied to each chunk of normalized rows, or null. */
    UnaryFn activation;
    float alpha;
    /** The binary op applied to each chunk of normalized rows and {@link #other} before the activation, or null. */
    BinaryFn binary;
    float binaryAlpha;
    /** The binary op's other operand, laid out as the output. */
    float[] other;
    int otherOff;
    /** Whether the normalized values are the binary op's first operand. */
    boolean normalizedFirst;
    /** Whether the vector backend called: its activation loops give the bits of its own activation kernel. */
    boolean vectorBackend;
    /** Channels from 0 that the Vector API loops take ({@link VectorBatchNormRows}); 0 for the scalar loops. */
    int vectorChannels;

    /** This thread's instance. */
    static BatchNormArgs get() {
        return LOCAL.get();
    }

    @Override
    void clearReferences() {
        x = null;
        dy = null;
        gate = null;
        activation = null;
        binary = null;
        other = null;
        out = null;
    }
}
