package dev.brisk.backend.jvm;

import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The elementwise work fused onto a kernel's output while it is still in cache: {@code c = fn(c + bias[j])} on a
 * block of rows just computed by gemm, and {@code dx = fn(gate, dx)} on an image just written by pooling's
 * backward. Every element goes through the same vector operations as the separate passes
 * ({@link VectorBinaryLoops}, {@link VectorUnaryLoops}), partial vectors included, so the results are the same bits.
 */
final class VectorEpilogue {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private VectorEpilogue() {
    }

    /**
     * {@code c[i][j] = fn(c[i][j] + bias[bi + j])} for {@code i < rows}, {@code j < cols}, row stride {@code ldc};
     * a null {@code bias} adds nothing and a null {@code fn} applies nothing.
     */
    static void biasActivation(float[] c, int ci, int ldc, int rows, int cols, float[] bias, int bi, UnaryFn fn,
                               float alpha) {
        if (fn == null || fn == UnaryFn.RELU) {
            biasRelu(c, ci, ldc, rows, cols, bias, bi, fn == UnaryFn.RELU);
            return;
        }
        int full = S.loopBound(cols);
        for (int i = 0; i < rows; i++) {
            int o = ci + i * ldc;
            if (bias != null) {
                VectorBinaryLoops.apply(BinaryFn.ADD, 0f, c, o, 1, bias, bi, 1, c, o, full);
            }
            VectorUnaryLoops.apply(fn, alpha, c, o, c, o, full);
            if (full < cols) {
                // As VectorElementwise does: the partial vector, zero-padded, through the same loops.
                int rest = cols - full;
                float[] tail = Scratch.get().tail(2 * L);
                Arrays.fill(tail, 0, 2 * L, 0f);
                System.arraycopy(c, o + full, tail, 0, rest);
                if (bias != null) {
                    System.arraycopy(bias, bi + full, tail, L, rest);
                    VectorBinaryLoops.apply(BinaryFn.ADD, 0f, tail, 0, 1, tail, L, 1, tail, 0, L);
                }
                VectorUnaryLoops.apply(fn, alpha, tail, 0, tail, 0, L);
                System.arraycopy(tail, 0, c, o + full, rest);
            }
        }
    }

    /**
     * {@code z[i][j] = c[i][j] + bias[bi + j]} kept in C, and {@code y[i][j] = fn(z[i][j])}, both with row stride
     * {@code ldc}: each row through the separate binary and unary kernels' own loops, so with their bits.
     */
    static void biasActivationKeeping(float[] c, int ci, int ldc, int rows, int cols, float[] bias, int bi,
                                      UnaryFn fn, float alpha, float[] y, int yi) {
        for (int i = 0; i < rows; i++) {
            int o = ci + i * ldc;
            if (bias != null) {
                VectorElementwise.row(BinaryFn.ADD, 0f, c, o, 1, bias, bi, 1, c, o, cols);
            }
            VectorElementwise.unaryRange(fn, alpha, c, o, y, yi + i * ldc, cols);
        }
    }

    /**
     * The common case written out: {@code c = c + bias[j]} (with a non-null {@code bias}) then relu (if
     * {@code relu}), one load and store per vector.
     */
    static void biasRelu(float[] c, int ci, int ldc, int rows, int cols, float[] bias, int bi,
                                 boolean relu) {
        boolean hasBias = bias != null;
        int full = S.loopBound(cols);
        for (int i = 0; i < rows; i++) {
            int o = ci + i * ldc;
            for (int j = 0; j < full; j += L) {
                FloatVector v = FloatVector.fromArray(S, c, o + j);
                if (hasBias) {
                    v = v.add(FloatVector.fromArray(S, bias, bi + j));
                }
                if (relu) {
                    v = v.max(0f);
                }
                v.intoArray(c, o + j);
            }
            if (full < cols) {
                VectorMask<Float> m = S.indexInRange(full, cols);
                FloatVector v = FloatVector.fromArray(S, c, o + full, m);
                if (hasBias) {
                    v = v.add(FloatVector.fromArray(S, bias, bi + full, m));
                }
                if (relu) {
                    v = v.max(0f);
                }
                v.intoArray(c, o + full, m);
            }
        }
    }

    /**
     * {@code c[i][j] = fn(c[i][j], x[i][j])} (or {@code fn(x[i][j], c[i][j])} when not {@code productFirst}) for
     * {@code i < rows}, {@code j < cols}, both with row stride {@code ldc}: a binary op of a product just computed
     * and an operand of its shape, each row through the separate binary kernel's own row loop, so with its bits.
     */
    static void binary(BinaryFn fn, float alpha, float[] c, int ci, float[] x, int xi, int ldc, int rows, int cols,
                       boolean productFirst) {
        for (int i = 0; i < rows; i++) {
            int o = ci + i * ldc;
            int p = xi + i * ldc;
            if (productFirst) {
                VectorElementwise.row(fn, alpha, c, o, 1, x, p, 1, c, o, cols);
            } else {
                VectorElementwise.row(fn, alpha, x, p, 1, c, o, 1, c, o, cols);
            }
        }
    }

    /** {@code dx[i] = fn(gate[i], dx[i])} for {@code i < n} (an activation's gradient applied in place). */
    static void gate(BinaryFn fn, float alpha, float[] gate, int gi, float[] dx, int di, int n) {
        int full = S.loopBound(n);
        VectorBinaryLoops.apply(fn, alpha, gate, gi, 1, dx, di, 1, dx, di, full);
        if (full < n) {
            int rest = n - full;
            float[] tail = Scratch.get().tail(3 * L);
            Arrays.fill(tail, 0, 3 * L, 0f);
            System.arraycopy(gate, gi + full, tail, 0, rest);
            System.arraycopy(dx, di + full, tail, L, rest);
            VectorBinaryLoops.apply(fn, alpha, tail, 0, 1, tail, L, 1, tail, 2 * L, L);
            System.arraycopy(tail, 2 * L, dx, di + full, rest);
        }
    }
}
