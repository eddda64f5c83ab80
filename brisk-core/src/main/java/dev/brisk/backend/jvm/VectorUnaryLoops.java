package dev.brisk.backend.jvm;

import dev.brisk.ops.UnaryFn;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector forms of {@link ScalarKernels#unary(UnaryFn, float, float)}, one loop per function over whole vectors
 * ({@code n} a multiple of the vector length). A switch per element, or one loop shared through a functional
 * interface, would stop C2 from keeping the vectors in registers: each function gets a small method of its own.
 */
final class VectorUnaryLoops {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final FloatVector ONE = FloatVector.broadcast(S, 1f);

    private VectorUnaryLoops() {
    }

    /** {@code y[i] = fn(x[i])} for {@code i < n}, {@code n} a multiple of the vector length. */
    static void apply(UnaryFn fn, float alpha, float[] x, int xo, float[] y, int yo, int n) {
        switch (fn) {
            case NEG -> neg(x, xo, y, yo, n);
            case EXP -> exp(x, xo, y, yo, n);
            case LOG -> log(x, xo, y, yo, n);
            case SQRT -> sqrt(x, xo, y, yo, n);
            case RSQRT -> rsqrt(x, xo, y, yo, n);
            case SQUARE -> square(x, xo, y, yo, n);
            case ABS -> abs(x, xo, y, yo, n);
            case RECIPROCAL -> reciprocal(x, xo, y, yo, n);
            case RELU -> relu(x, xo, y, yo, n);
            case SIGMOID -> sigmoid(x, xo, y, yo, n);
            case TANH -> tanh(x, xo, y, yo, n);
            case GELU -> gelu(x, xo, y, yo, n);
            case LEAKY_RELU -> leakyRelu(alpha, x, xo, y, yo, n);
            case SCALE -> scale(alpha, x, xo, y, yo, n);
            case ADD_SCALAR -> addScalar(alpha, x, xo, y, yo, n);
            case CLIP_PROB -> clipProb(alpha, x, xo, y, yo, n);
            case NON_FINITE -> nonFinite(x, xo, y, yo, n);
        }
    }

    private static void neg(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.neg().intoArray(y, yo + i);
        }
    }

    private static void exp(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            VectorMath.exp(v).intoArray(y, yo + i);
        }
    }

    private static void log(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            VectorMath.log(v).intoArray(y, yo + i);
        }
    }

    private static void sqrt(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.sqrt().intoArray(y, yo + i);
        }
    }

    private static void rsqrt(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            ONE.div(v.sqrt()).intoArray(y, yo + i);
        }
    }

    private static void square(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.mul(v).intoArray(y, yo + i);
        }
    }

    private static void abs(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.abs().intoArray(y, yo + i);
        }
    }

    private static void reciprocal(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            ONE.div(v).intoArray(y, yo + i);
        }
    }

    private static void relu(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.max(0f).intoArray(y, yo + i);
        }
    }

    private static void sigmoid(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            VectorMath.sigmoid(v).intoArray(y, yo + i);
        }
    }

    private static void tanh(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            VectorMath.tanh(v).intoArray(y, yo + i);
        }
    }

    private static void gelu(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.mul(VectorMath.normalCdf(v)).intoArray(y, yo + i);
        }
    }

    private static void leakyRelu(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.mul(alpha).blend(v, v.compare(VectorOperators.GT, 0f)).intoArray(y, yo + i);
        }
    }

    private static void scale(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.mul(alpha).intoArray(y, yo + i);
        }
    }

    private static void addScalar(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.add(alpha).intoArray(y, yo + i);
        }
    }

    private static void clipProb(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            v.max(alpha).min(1 - alpha).intoArray(y, yo + i);
        }
    }

    private static void nonFinite(float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, xo + i);
            ONE.blend(0f, v.test(VectorOperators.IS_FINITE)).intoArray(y, yo + i);
        }
    }
}
