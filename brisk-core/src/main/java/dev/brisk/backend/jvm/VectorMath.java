package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** Special functions on whole vectors, for the activations and their gradients. */
final class VectorMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final float SQRT_HALF = (float) Math.sqrt(0.5);
    private static final float INV_SQRT_2PI = (float) (1 / Math.sqrt(2 * Math.PI));

    private VectorMath() {
    }

    /** 1 / (1 + exp(-x)). */
    static FloatVector sigmoid(FloatVector v) {
        return FloatVector.broadcast(S, 1f).div(v.neg().lanewise(VectorOperators.EXP).add(1f));
    }

    /** Phi(x) = (1 + erf(x / sqrt 2)) / 2. */
    static FloatVector normalCdf(FloatVector v) {
        return erf(v.mul(SQRT_HALF)).add(1f).mul(0.5f);
    }

    /** gelu'(x) = Phi(x) + x phi(x). */
    static FloatVector geluDerivative(FloatVector v) {
        FloatVector pdf = v.mul(v).mul(-0.5f).lanewise(VectorOperators.EXP).mul(INV_SQRT_2PI);
        return normalCdf(v).add(v.mul(pdf));
    }

    /**
     * erf to a few float ulps: the odd/even rational approximation on [-4, 4] used by Eigen and XLA (erf is +-1
     * in float beyond).
     */
    static FloatVector erf(FloatVector v) {
        FloatVector x = v.max(-4f).min(4f);
        FloatVector x2 = x.mul(x);
        FloatVector p = x2.fma(-2.72614225801306e-10f, 2.77068142495902e-08f);
        p = x2.fma(p, FloatVector.broadcast(S, -2.10102402082508e-06f));
        p = x2.fma(p, FloatVector.broadcast(S, -5.69250639462346e-05f));
        p = x2.fma(p, FloatVector.broadcast(S, -7.34990630326855e-04f));
        p = x2.fma(p, FloatVector.broadcast(S, -2.95459980854025e-03f));
        p = x2.fma(p, FloatVector.broadcast(S, -1.60960333262415e-02f));
        FloatVector q = x2.fma(-1.45660718464996e-05f, -2.13374055278905e-04f);
        q = x2.fma(q, FloatVector.broadcast(S, -1.68282697438203e-03f));
        q = x2.fma(q, FloatVector.broadcast(S, -7.37332916720468e-03f));
        q = x2.fma(q, FloatVector.broadcast(S, -1.42647390514189e-02f));
        return x.mul(p).div(q);
    }
}
