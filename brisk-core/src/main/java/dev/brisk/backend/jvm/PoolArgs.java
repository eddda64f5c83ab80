package dev.brisk.backend.jvm;

import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.PoolGeometry;

/**
 * The arguments of a parallel pooling call: the geometry, the array read and the array written, and for max
 * pooling the winning cells and the gradient's fused gate.
 */
final class PoolArgs extends RegionTask<PoolArgs> {
    PoolGeometry pool;
    /** What the call reads: the input forward, the output gradient backward. */
    float[] src;
    int srcOff;
    /** What the call writes: the output forward, the input gradient (or per-slot partial sums) backward. */
    float[] dst;
    int dstOff;
    /** Max pooling's winning cell of each window. */
    float[] cells;
    int cellsOff;
    /** Max pooling's gradient gate: {@code dx = gateFn(dx, gate)}, with {@code alpha}. */
    BinaryFn gateFn;
    float alpha;
    float[] gate;
    int gateOff;
    /** The channel sums' reduced extent and how many slots share it. */
    int rows;
    int slots;

    /** This thread's instance. */
    static PoolArgs get() {
        return Scratch.get().poolArgs();
    }

    @Override
    void clearReferences() {
        pool = null;
        src = null;
        dst = null;
        cells = null;
        gateFn = null;
        gate = null;
    }
}
