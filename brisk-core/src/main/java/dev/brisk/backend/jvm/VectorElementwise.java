package dev.brisk.backend.jvm;

import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Drivers of the vectorised elementwise kernels. A broadcast binary op is first reduced to rows: axes of size 1
 * are dropped and neighbouring axes that both inputs traverse contiguously are merged, so the usual cases (same
 * shape, a bias row repeated over a batch, a scalar, a per-row column) become rows whose inputs each step by 1 or 0,
 * which run as vector loops; any other innermost stride falls back to the reference formulas. The loops themselves
 * are in {@link VectorUnaryLoops} and {@link VectorBinaryLoops}; they see whole vectors only, and the last partial
 * vector of a row goes through a small scratch buffer.
 */
final class VectorElementwise {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Elements per parallel chunk: below about 64K floats a region costs more than it saves. */
    static final int GRAIN = 1 << 15;

    private VectorElementwise() {
    }

    // ---------------------------------------------------------------- unary

    static void unary(UnaryFn fn, float alpha, float[] x, int xOff, float[] y, int yOff, int n) {
        if (Split.serial(n, GRAIN)) {
            unaryRange(fn, alpha, x, xOff, y, yOff, n);
        } else {
            ElementwiseArgs r = ElementwiseArgs.get();
            r.unary = fn;
            r.alpha = alpha;
            r.a = x;
            r.aOff = xOff;
            r.out = y;
            r.outOff = yOff;
            r.forRange(n, GRAIN, Split.CHUNKS_PER_THREAD, (g, i0, i1) ->
                    unaryRange(g.unary, g.alpha, g.a, g.aOff + i0, g.out, g.outOff + i0, i1 - i0));
        }
    }

    /** {@code y = fn(x)} over {@code n} elements on this thread, with the bits of {@link #unary}. */
    static void unaryRange(UnaryFn fn, float alpha, float[] x, int xOff, float[] y, int yOff, int n) {
        int full = S.loopBound(n);
        VectorUnaryLoops.apply(fn, alpha, x, xOff, y, yOff, full);
        if (full < n) {
            float[] tail = Scratch.get().tail(L);
            Arrays.fill(tail, 0, L, 0f);
            System.arraycopy(x, xOff + full, tail, 0, n - full);
            VectorUnaryLoops.apply(fn, alpha, tail, 0, tail, 0, L);
            System.arraycopy(tail, 0, y, yOff + full, n - full);
        }
    }

    private static void setBinary(ElementwiseArgs r, BinaryFn fn, float alpha, float[] a, int aOff, float[] b,
                                  int bOff, float[] out, int outOff) {
        r.binary = fn;
        r.alpha = alpha;
        r.a = a;
        r.aOff = aOff;
        r.b = b;
        r.bOff = bOff;
        r.out = out;
        r.outOff = outOff;
    }

    // ---------------------------------------------------------------- binary

    static void binary(BinaryFn fn, float alpha, float[] a, int aOff, int[] aStrides, float[] b, int bOff,
                       int[] bStrides, float[] out, int outOff, int[] outShape) {
        int[] dims = Scratch.get().dims(3 * outShape.length);
        int rank = collapse(outShape, aStrides, bStrides, dims);
        int total = 1;
        for (int d : outShape) {
            total *= d;
        }
        if (total == 0) {
            return;
        }
        if (rank == 0) {
            out[outOff] = ScalarKernels.binary(fn, alpha, a[aOff], b[bOff]);
            return;
        }
        int len = dims[rank - 1];
        int sa = dims[2 * rank - 1];
        int sb = dims[3 * rank - 1];
        int rows = total / len;
        if (rows == 1) {
            // One long row: split the row itself.
            if (Split.serial(len, GRAIN)) {
                row(fn, alpha, a, aOff, sa, b, bOff, sb, out, outOff, len);
            } else {
                ElementwiseArgs r = ElementwiseArgs.get();
                setBinary(r, fn, alpha, a, aOff, b, bOff, out, outOff);
                r.aStride = sa;
                r.bStride = sb;
                r.forRange(len, GRAIN, (g, i0, i1) -> row(g.binary, g.alpha, g.a, g.aOff + i0 * g.aStride, g.aStride,
                        g.b, g.bOff + i0 * g.bStride, g.bStride, g.out, g.outOff + i0, i1 - i0));
            }
            return;
        }
        int grain = Math.max(1, GRAIN / len);
        if (Split.serial(rows, grain)) {
            rows(fn, alpha, a, aOff, b, bOff, out, outOff, dims, rank, 0, rows);
        } else {
            // Workers only read this thread's dims, which it leaves alone until the region ends.
            ElementwiseArgs r = ElementwiseArgs.get();
            setBinary(r, fn, alpha, a, aOff, b, bOff, out, outOff);
            r.dims = dims;
            r.rank = rank;
            r.forRange(rows, grain, Split.CHUNKS_PER_THREAD, (g, r0, r1) -> rows(g.binary, g.alpha, g.a, g.aOff,
                    g.b, g.bOff, g.out, g.outOff, g.dims, g.rank, r0, r1));
        }
    }

    /**
     * Drops size-1 axes and merges an axis into the previous one when both inputs step across the pair as one
     * axis. Writes {@code shape | aStrides | bStrides} of the result, each {@code rank} long, to {@code dims}
     * and returns the rank.
     */
    private static int collapse(int[] shape, int[] aStrides, int[] bStrides, int[] dims) {
        int rank = 0;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 1) {
                continue;
            }
            if (rank > 0 && dims[rank - 1 + shape.length] == aStrides[d] * shape[d]
                    && dims[rank - 1 + 2 * shape.length] == bStrides[d] * shape[d]) {
                dims[rank - 1] *= shape[d];
                dims[rank - 1 + shape.length] = aStrides[d];
                dims[rank - 1 + 2 * shape.length] = bStrides[d];
            } else {
                dims[rank] = shape[d];
                dims[rank + shape.length] = aStrides[d];
                dims[rank + 2 * shape.length] = bStrides[d];
                rank++;
            }
        }
        // Pack the three sections to stride `rank` so callers index shape[i], a[rank + i], b[2 rank + i].
        for (int i = 0; i < rank; i++) {
            dims[rank + i] = dims[shape.length + i];
        }
        for (int i = 0; i < rank; i++) {
            dims[2 * rank + i] = dims[2 * shape.length + i];
        }
        return rank;
    }

    /** Rows {@code [r0, r1)} of the collapsed problem; the last collapsed axis is the row. */
    private static void rows(BinaryFn fn, float alpha, float[] a, int aOff, float[] b, int bOff, float[] out,
                             int outOff, int[] dims, int rank, int r0, int r1) {
        int len = dims[rank - 1];
        int sa = dims[2 * rank - 1];
        int sb = dims[3 * rank - 1];
        for (int r = r0; r < r1; r++) {
            int ai = aOff;
            int bi = bOff;
            int rest = r;
            for (int d = rank - 2; d >= 0; d--) {
                int idx = rest % dims[d];
                rest /= dims[d];
                ai += idx * dims[rank + d];
                bi += idx * dims[2 * rank + d];
            }
            row(fn, alpha, a, ai, sa, b, bi, sb, out, outOff + r * len, len);
        }
    }

    /** {@code out[i] = fn(a[ai + i sa], b[bi + i sb])} for {@code i < len}. */
    static void row(BinaryFn fn, float alpha, float[] a, int ai, int sa, float[] b, int bi, int sb,
                            float[] out, int oi, int len) {
        if ((sa | sb) >>> 1 != 0) {
            for (int i = 0; i < len; i++) {
                out[oi + i] = ScalarKernels.binary(fn, alpha, a[ai + i * sa], b[bi + i * sb]);
            }
            return;
        }
        int full = S.loopBound(len);
        VectorBinaryLoops.apply(fn, alpha, a, ai, sa, b, bi, sb, out, oi, full);
        if (full < len) {
            // The tail of each input that steps (a broadcast one is read in place) and the result, in scratch:
            // [0, L) a, [L, 2L) b, [2L, 3L) out.
            int rest = len - full;
            float[] tail = Scratch.get().tail(3 * L);
            Arrays.fill(tail, 0, 3 * L, 0f);
            if (sa == 1) {
                System.arraycopy(a, ai + full, tail, 0, rest);
            }
            if (sb == 1) {
                System.arraycopy(b, bi + full, tail, L, rest);
            }
            VectorBinaryLoops.apply(fn, alpha, sa == 1 ? tail : a, sa == 1 ? 0 : ai, sa,
                    sb == 1 ? tail : b, sb == 1 ? L : bi, sb, tail, 2 * L, L);
            System.arraycopy(tail, 2 * L, out, oi + full, rest);
        }
    }

    /** Elements that a fused binary op and activation finish before the next block: 16 KB, so it stays in L1. */
    private static final int FUSED_BLOCK = 1 << 12;

    /**
     * {@code out[i] = activation(fn(a[i], b[i]))} over {@code n} elements of two same-shape operands, block by block
     * ({@link #FUSED_BLOCK}), with the bits of the two separate kernels: both are elementwise, and their tails go
     * through the same vector loops as whole vectors.
     */
    static void binaryActivation(BinaryFn fn, float alpha, float[] a, int aOff, float[] b, int bOff,
                                 UnaryFn activation, float activationAlpha, float[] out, int outOff, int n) {
        if (Split.serial(n, GRAIN)) {
            binaryActivationRange(fn, alpha, a, aOff, b, bOff, activation, activationAlpha, out, outOff, 0, n);
            return;
        }
        ElementwiseArgs r = ElementwiseArgs.get();
        setBinary(r, fn, alpha, a, aOff, b, bOff, out, outOff);
        r.unary = activation;
        r.unaryAlpha = activationAlpha;
        r.forRange(n, GRAIN, Split.CHUNKS_PER_THREAD, (g, i0, i1) -> binaryActivationRange(g.binary, g.alpha, g.a,
                g.aOff, g.b, g.bOff, g.unary, g.unaryAlpha, g.out, g.outOff, i0, i1));
    }

    private static void binaryActivationRange(BinaryFn fn, float alpha, float[] a, int aOff, float[] b, int bOff,
                                              UnaryFn activation, float activationAlpha, float[] out, int outOff,
                                              int i0, int i1) {
        for (int i = i0; i < i1; i += FUSED_BLOCK) {
            int len = Math.min(FUSED_BLOCK, i1 - i);
            row(fn, alpha, a, aOff + i, 1, b, bOff + i, 1, out, outOff + i, len);
            unaryRange(activation, activationAlpha, out, outOff + i, out, outOff + i, len);
        }
    }

    /** {@code out[i] = sum over s < slices of x[s * size + i]}, adding the slices in order. */
    static void sumSlices(float[] x, int slices, int size, float[] out, int outOff) {
        System.arraycopy(x, 0, out, outOff, size);
        for (int s = 1; s < slices; s++) {
            VectorBinaryLoops.apply(BinaryFn.ADD, 0, out, outOff, 1, x, s * size, 1, out, outOff, S.loopBound(size));
            for (int i = S.loopBound(size); i < size; i++) {
                out[outOff + i] += x[s * size + i];
            }
        }
    }
}
