package dev.brisk.backend.jvm;

import dev.brisk.backend.ElementwiseChain;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;

/**
 * The arguments of a parallel element-wise call: a unary function reads {@code a} and writes {@code out}; a binary
 * function reads {@code a} and {@code b}, either along one strided row or over the rows of a collapsed broadcast.
 */
final class ElementwiseArgs extends RegionTask<ElementwiseArgs> {
    UnaryFn unary;
    BinaryFn binary;
    float alpha;
    /** The parameter of {@code unary} when it follows a binary function in one call. */
    float unaryAlpha;
    float[] a;
    int aOff;
    float[] b;
    int bOff;
    float[] out;
    int outOff;
    /** Along one row: the element steps of {@code a} and {@code b}. */
    int aStride;
    int bStride;
    /** Over rows: {@code shape | aStrides | bStrides} of the collapsed broadcast, each {@code rank} long. */
    int[] dims;
    int rank;
    /** An elementwise chain's steps, its inputs' arrays and their offsets (and {@code out}, {@code outOff}). */
    ElementwiseChain chain;
    float[][] inputs;
    int[] inputOffsets;

    /** This thread's instance. */
    static ElementwiseArgs get() {
        return Scratch.get().elementwiseArgs();
    }

    @Override
    void clearReferences() {
        unary = null;
        binary = null;
        a = null;
        b = null;
        out = null;
        dims = null;
        chain = null;
        inputs = null;
        inputOffsets = null;
    }
}
