package dev.brisk.backend.jvm;

import dev.brisk.ops.BinaryFn;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector forms of {@link ScalarKernels#binary(BinaryFn, float, float, float)}, one loop per function (see
 * {@link VectorUnaryLoops} for why) over {@code n} elements, a multiple of the vector length. Each input steps by
 * 1 (a row) or 0 (one value broadcast).
 */
final class VectorBinaryLoops {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final FloatVector ZERO = FloatVector.zero(S);
    private static final FloatVector ONE = FloatVector.broadcast(S, 1f);

    private VectorBinaryLoops() {
    }

    /** {@code o[i] = fn(a[ai + i sa], b[bi + i sb])} for {@code i < n}, strides 0 or 1. */
    static void apply(BinaryFn fn, float alpha, float[] a, int ai, int sa, float[] b, int bi, int sb, float[] o,
                      int oi, int n) {
        switch (fn) {
            case ADD -> add(a, ai, sa, b, bi, sb, o, oi, n);
            case SUB -> sub(a, ai, sa, b, bi, sb, o, oi, n);
            case MUL -> mul(a, ai, sa, b, bi, sb, o, oi, n);
            case DIV -> div(a, ai, sa, b, bi, sb, o, oi, n);
            case MAX -> max(a, ai, sa, b, bi, sb, o, oi, n);
            case MIN -> min(a, ai, sa, b, bi, sb, o, oi, n);
            case GREATER -> greater(a, ai, sa, b, bi, sb, o, oi, n);
            case RELU_GRAD -> reluGrad(a, ai, sa, b, bi, sb, o, oi, n);
            case LEAKY_RELU_GRAD -> leakyReluGrad(alpha, a, ai, sa, b, bi, sb, o, oi, n);
            case SIGMOID_GRAD -> sigmoidGrad(a, ai, sa, b, bi, sb, o, oi, n);
            case TANH_GRAD -> tanhGrad(a, ai, sa, b, bi, sb, o, oi, n);
            case GELU_GRAD -> geluGrad(a, ai, sa, b, bi, sb, o, oi, n);
            case CLIP_PROB_GRAD -> clipProbGrad(alpha, a, ai, sa, b, bi, sb, o, oi, n);
        }
    }

    private static FloatVector load(float[] x, int off, int stride, int i) {
        return stride == 0 ? FloatVector.broadcast(S, x[off]) : FloatVector.fromArray(S, x, off + i);
    }

    private static void add(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            a.add(b).intoArray(o, oi + i);
        }
    }

    private static void sub(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            a.sub(b).intoArray(o, oi + i);
        }
    }

    private static void mul(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            a.mul(b).intoArray(o, oi + i);
        }
    }

    private static void div(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            a.div(b).intoArray(o, oi + i);
        }
    }

    private static void max(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            a.max(b).intoArray(o, oi + i);
        }
    }

    private static void min(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            a.min(b).intoArray(o, oi + i);
        }
    }

    private static void greater(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            ZERO.blend(1f, a.compare(VectorOperators.GT, b)).intoArray(o, oi + i);
        }
    }

    private static void reluGrad(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            ZERO.blend(b, a.compare(VectorOperators.GT, 0f)).intoArray(o, oi + i);
        }
    }

    private static void leakyReluGrad(float alpha, float[] as, int ai, int sa, float[] bs, int bi, int sb,
                                      float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            b.mul(alpha).blend(b, a.compare(VectorOperators.GT, 0f)).intoArray(o, oi + i);
        }
    }

    private static void sigmoidGrad(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            b.mul(a).mul(ONE.sub(a)).intoArray(o, oi + i);
        }
    }

    private static void tanhGrad(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            b.mul(ONE.sub(a.mul(a))).intoArray(o, oi + i);
        }
    }

    private static void geluGrad(float[] as, int ai, int sa, float[] bs, int bi, int sb, float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            b.mul(VectorMath.geluDerivative(a)).intoArray(o, oi + i);
        }
    }

    private static void clipProbGrad(float alpha, float[] as, int ai, int sa, float[] bs, int bi, int sb,
                                     float[] o, int oi, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector a = load(as, ai, sa, i);
            FloatVector b = load(bs, bi, sb, i);
            ZERO.blend(b, a.compare(VectorOperators.GE, alpha).and(a.compare(VectorOperators.LE, 1 - alpha)))
                    .intoArray(o, oi + i);
        }
    }
}
