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

    /** The input-gradient kernel {@link #inputGradient} runs over ranges of images. */
    InputGradientImages images;
    /** Below this many multiply-adds an input gradient runs on the calling thread. */
    private static final long PARALLEL_MIN_MACS = 1L << 17;

    /**
     * An input-gradient kernel over images {@code [n0, n1)}, from dy and its prepared (packed) filter into dx. A
     * constant (a method reference to a static method), so that passing it allocates nothing.
     */
    @FunctionalInterface
    interface InputGradientImages {
        void run(ConvGeometry g, float[] dy, int dyOff, float[] filter, float[] dx, int dxOff, int n0, int n1);
    }

    /** This thread's instance. */
    static ConvArgs get() {
        return Scratch.get().convArgs();
    }

    /**
     * Runs an input-gradient kernel over {@code g}'s images: on the calling thread below {@link #PARALLEL_MIN_MACS}
     * multiply-adds ({@code macs}) or with one thread, else split by whole images over the pool (each dx image
     * written by one thread, so any split gives the same bits). {@code filter} is handed to the region's threads,
     * which only read it.
     */
    static void inputGradient(ConvGeometry g, long macs, float[] dy, int dyOff, float[] filter, float[] dx,
                              int dxOff, InputGradientImages kernel) {
        if (macs < PARALLEL_MIN_MACS || Split.serial(g.batch(), 1)) {
            kernel.run(g, dy, dyOff, filter, dx, dxOff, 0, g.batch());
            return;
        }
        ConvArgs r = get();
        r.conv = g;
        r.dy = dy;
        r.dyOff = dyOff;
        r.w = filter;
        r.out = dx;
        r.outOff = dxOff;
        r.images = kernel;
        r.forRange(g.batch(), 1, Split.CHUNKS_PER_THREAD, (a, n0, n1) -> a.images.run(a.conv, a.dy, a.dyOff, a.w,
                a.out, a.outOff, n0, n1));
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
        images = null;
    }
}
