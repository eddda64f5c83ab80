package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.UnaryFn;

/**
 * The arguments of a parallel convolution: forward ({@code x}, {@code w} into {@code out}, with a fused bias,
 * activation and optionally max pooling), the input gradient ({@code dy}, {@code w} into {@code out}) or the
 * filter gradient ({@code x}, {@code dy} into per-slot partial sums in {@code out}).
 */
final class ConvArgs extends RegionTask<ConvArgs> {
    ConvGeometry conv;
    float[] x;
    int xOff;
    float[] w;
    int wOff;
    float[] dy;
    int dyOff;
    /** What the call writes: the output, the input gradient, or the filter gradient's per-slot partial sums. */
    float[] out;
    int outOff;
    float[] bias;
    int biasOff;
    /** The fused activation: a function with its {@code alpha}, or (for the direct kernel) ReLU or none. */
    UnaryFn fn;
    float alpha;
    boolean relu;
    /** The fused max pooling, or the pooling whose gradient the filter gradient reads through {@code cells}. */
    PoolGeometry pool;
    float[] cells;
    int cellsOff;
    /** The filter gradient's slots and the size of one slot's partial result. */
    int slots;
    int size;

    /** This thread's instance. */
    static ConvArgs get() {
        return Scratch.get().convArgs();
    }

    @Override
    void clearReferences() {
        conv = null;
        x = null;
        w = null;
        dy = null;
        out = null;
        bias = null;
        fn = null;
        pool = null;
        cells = null;
    }
}
