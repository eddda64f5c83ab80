package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Special functions on whole vectors, for the activations and their gradients.
 *
 * <p>exp, log and tanh are computed here from adds, multiplies and fused multiply-adds rather than with the Vector
 * API's {@code EXP}/{@code LOG}/{@code TANH} lanewise operators: those call a native math library once compiled by
 * C2 but a Java fallback while interpreted, and the two differ in the last bits, which made the same seeded run
 * end at different weights depending on when the JIT kicked in. IEEE arithmetic gives the same bits on either
 * path. For the same reason sums across lanes are added in a fixed order by the callers,
 * not with {@code reduceLanes(ADD)}, which may add lanes in any order.
 */
final class VectorMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final float LOG2E = 1.44269504088896341f;
    private static final float LN2_HI = 0.693359375f;
    private static final float LN2_LO = -2.12194440e-4f;
    /** Below this, exp(x) is under the smallest normal float and is returned as 0. */
    private static final float EXP_MIN = -87.33654f;
    /** Above this, exp(x) overflows float. */
    private static final float EXP_MAX = 88.72284f;
    private static final float SQRT_HALF_F = 0.707106781186547524f;
    private static final float SQRT_HALF = (float) Math.sqrt(0.5);
    private static final float INV_SQRT_2PI = (float) (1 / Math.sqrt(2 * Math.PI));
    // The constants of exp and erf as vectors made once. Written inline (FloatVector.broadcast, or a float operand)
    // each one is a chain of inlined Vector API calls while C2 parses; with exp and erf in one loop (GELU's
    // gradient) that ran past C2's node-count inlining cutoff, erf was left out of line, and each vector it took
    // and returned was allocated (VectorAllocationTest, after some test orders). Same values, so the same bits.
    private static final FloatVector ONE = FloatVector.broadcast(S, 1f);
    private static final FloatVector EXP_MIN_V = FloatVector.broadcast(S, EXP_MIN);
    private static final FloatVector EXP_MAX_V = FloatVector.broadcast(S, EXP_MAX);
    private static final FloatVector LOG2E_V = FloatVector.broadcast(S, LOG2E);
    /** 1.5 * 2^23: adding and subtracting it rounds a float to an integer. */
    private static final FloatVector ROUND_V = FloatVector.broadcast(S, 12582912f);
    private static final FloatVector MINUS_LN2_HI_V = FloatVector.broadcast(S, -LN2_HI);
    private static final FloatVector MINUS_LN2_LO_V = FloatVector.broadcast(S, -LN2_LO);
    private static final FloatVector EXP_P0 = FloatVector.broadcast(S, 1.9875691500E-4f);
    private static final FloatVector EXP_P1 = FloatVector.broadcast(S, 1.3981999507E-3f);
    private static final FloatVector EXP_P2 = FloatVector.broadcast(S, 8.3334519073E-3f);
    private static final FloatVector EXP_P3 = FloatVector.broadcast(S, 4.1665795894E-2f);
    private static final FloatVector EXP_P4 = FloatVector.broadcast(S, 1.6666665459E-1f);
    private static final FloatVector EXP_P5 = FloatVector.broadcast(S, 5.0000001201E-1f);
    private static final FloatVector ERF_MIN_V = FloatVector.broadcast(S, -4f);
    private static final FloatVector ERF_MAX_V = FloatVector.broadcast(S, 4f);
    private static final FloatVector ERF_P0 = FloatVector.broadcast(S, -2.72614225801306e-10f);
    private static final FloatVector ERF_P1 = FloatVector.broadcast(S, 2.77068142495902e-08f);
    private static final FloatVector ERF_P2 = FloatVector.broadcast(S, -2.10102402082508e-06f);
    private static final FloatVector ERF_P3 = FloatVector.broadcast(S, -5.69250639462346e-05f);
    private static final FloatVector ERF_P4 = FloatVector.broadcast(S, -7.34990630326855e-04f);
    private static final FloatVector ERF_P5 = FloatVector.broadcast(S, -2.95459980854025e-03f);
    private static final FloatVector ERF_P6 = FloatVector.broadcast(S, -1.60960333262415e-02f);
    private static final FloatVector ERF_Q0 = FloatVector.broadcast(S, -1.45660718464996e-05f);
    private static final FloatVector ERF_Q1 = FloatVector.broadcast(S, -2.13374055278905e-04f);
    private static final FloatVector ERF_Q2 = FloatVector.broadcast(S, -1.68282697438203e-03f);
    private static final FloatVector ERF_Q3 = FloatVector.broadcast(S, -7.37332916720468e-03f);
    private static final FloatVector ERF_Q4 = FloatVector.broadcast(S, -1.42647390514189e-02f);

    private VectorMath() {
    }

    /**
     * e^x to about 2 float ulps (Cephes' expf: x = n ln 2 + r, a degree-6 polynomial for e^r, 2^n built in the
     * exponent bits); 0 below the normal range, infinity above it, NaN for NaN.
     */
    static FloatVector exp(FloatVector v) {
        FloatVector x = v.max(EXP_MIN_V).min(EXP_MAX_V);
        FloatVector n = x.fma(LOG2E_V, ROUND_V).sub(ROUND_V);
        FloatVector r = n.fma(MINUS_LN2_HI_V, x);
        r = n.fma(MINUS_LN2_LO_V, r);
        FloatVector p = r.fma(EXP_P0, EXP_P1);
        p = p.fma(r, EXP_P2);
        p = p.fma(r, EXP_P3);
        p = p.fma(r, EXP_P4);
        p = p.fma(r, EXP_P5);
        FloatVector y = p.fma(r.mul(r), r).add(ONE);
        // n can reach 128, one past the largest exponent: there 2^n is applied as 2^(n-1) * 2.
        VectorMask<Float> big = n.compare(VectorOperators.GT, 127f);
        IntVector bits = ((IntVector) n.sub(ONE, big).convert(VectorOperators.F2I, 0)).add(127)
                .lanewise(VectorOperators.LSHL, 23);
        y = y.mul(bits.reinterpretAsFloats());
        y = y.add(y, big);
        y = y.blend(0f, v.compare(VectorOperators.LT, EXP_MIN_V));
        return y.blend(Float.POSITIVE_INFINITY, v.compare(VectorOperators.GT, EXP_MAX_V));
    }

    /**
     * {@link #exp} for arguments at most 0 (a score minus its row's maximum), with its bits there: what exp does
     * only for arguments above 0 (the clamp to the overflow bound, 2^128 as 2^127 * 2, infinity) is left out. An
     * argument above 0 gives a wrong result, not an exception.
     */
    static FloatVector expNonPositive(FloatVector v) {
        FloatVector x = v.max(EXP_MIN_V);
        FloatVector n = x.fma(LOG2E_V, ROUND_V).sub(ROUND_V);
        FloatVector r = n.fma(MINUS_LN2_HI_V, x);
        r = n.fma(MINUS_LN2_LO_V, r);
        FloatVector p = r.fma(EXP_P0, EXP_P1);
        p = p.fma(r, EXP_P2);
        p = p.fma(r, EXP_P3);
        p = p.fma(r, EXP_P4);
        p = p.fma(r, EXP_P5);
        FloatVector y = p.fma(r.mul(r), r).add(ONE);
        IntVector bits = ((IntVector) n.convert(VectorOperators.F2I, 0)).add(127).lanewise(VectorOperators.LSHL, 23);
        return y.mul(bits.reinterpretAsFloats()).blend(0f, v.compare(VectorOperators.LT, EXP_MIN_V));
    }

    /**
     * Natural log to about 2 float ulps (Cephes' logf: x = m 2^e with m in [sqrt(1/2), sqrt 2), a polynomial in
     * m - 1); NaN below 0, -infinity at 0, infinity at infinity. Subnormal inputs are treated as 0.
     */
    static FloatVector log(FloatVector v) {
        IntVector bits = v.reinterpretAsInts();
        FloatVector e = bits.lanewise(VectorOperators.LSHR, 23).sub(126).convert(VectorOperators.I2F, 0)
                .reinterpretAsFloats();
        FloatVector m = bits.and(0x807fffff).or(0x3f000000).reinterpretAsFloats();
        VectorMask<Float> small = m.compare(VectorOperators.LT, SQRT_HALF_F);
        e = e.sub(1f, small);
        m = m.add(m, small).sub(1f);
        FloatVector z = m.mul(m);
        FloatVector y = logPolynomial(m, z);
        y = e.fma(FloatVector.broadcast(S, LN2_LO), y);
        y = z.fma(FloatVector.broadcast(S, -0.5f), y);
        FloatVector result = m.add(y).add(e.mul(LN2_HI));
        result = result.blend(Float.NEGATIVE_INFINITY, v.compare(VectorOperators.LT, Float.MIN_NORMAL));
        result = result.blend(Float.NaN, v.compare(VectorOperators.LT, 0f));
        result = result.blend(v, v.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY));
        return result.blend(v, v.test(VectorOperators.IS_NAN));
    }

    /** Cephes' logf polynomial: log(1 + m) - m + m^2 / 2 for m in [sqrt(1/2) - 1, sqrt 2 - 1), given z = m^2. */
    private static FloatVector logPolynomial(FloatVector m, FloatVector z) {
        FloatVector y = m.fma(7.0376836292E-2f, -1.1514610310E-1f);
        y = y.fma(m, FloatVector.broadcast(S, 1.1676998740E-1f));
        y = y.fma(m, FloatVector.broadcast(S, -1.2420140846E-1f));
        y = y.fma(m, FloatVector.broadcast(S, 1.4249322787E-1f));
        y = y.fma(m, FloatVector.broadcast(S, -1.6668057665E-1f));
        y = y.fma(m, FloatVector.broadcast(S, 2.0000714765E-1f));
        y = y.fma(m, FloatVector.broadcast(S, -2.4999993993E-1f));
        y = y.fma(m, FloatVector.broadcast(S, 3.3333331174E-1f));
        return y.mul(m).mul(z);
    }

    /** tanh: Cephes' odd polynomial below |x| = 0.625, {@code 1 - 2 / (e^2|x| + 1)} with the sign above it. */
    static FloatVector tanh(FloatVector v) {
        FloatVector a = v.abs();
        FloatVector z = v.mul(v);
        FloatVector p = z.fma(-5.70498872745E-3f, 2.06390887954E-2f);
        p = p.fma(z, FloatVector.broadcast(S, -5.37397155531E-2f));
        p = p.fma(z, FloatVector.broadcast(S, 1.33314422036E-1f));
        p = p.fma(z, FloatVector.broadcast(S, -3.33332819422E-1f));
        FloatVector near = p.mul(z).fma(v, v);
        FloatVector far = FloatVector.broadcast(S, 1f).sub(FloatVector.broadcast(S, 2f).div(exp(a.add(a)).add(1f)));
        far = far.lanewise(VectorOperators.NEG, v.compare(VectorOperators.LT, 0f));
        return near.blend(far, a.compare(VectorOperators.GE, 0.625f));
    }

    /** 1 / (1 + exp(-x)). */
    static FloatVector sigmoid(FloatVector v) {
        return FloatVector.broadcast(S, 1f).div(exp(v.neg()).add(1f));
    }

    /** Phi(x) = (1 + erf(x / sqrt 2)) / 2. */
    static FloatVector normalCdf(FloatVector v) {
        return erf(v.mul(SQRT_HALF)).add(1f).mul(0.5f);
    }

    /** gelu'(x) = Phi(x) + x phi(x). */
    static FloatVector geluDerivative(FloatVector v) {
        FloatVector pdf = exp(v.mul(v).mul(-0.5f)).mul(INV_SQRT_2PI);
        return normalCdf(v).add(v.mul(pdf));
    }

    /**
     * erf to a few float ulps: the odd/even rational approximation on [-4, 4] used by Eigen and XLA (erf is +-1
     * in float beyond).
     */
    static FloatVector erf(FloatVector v) {
        FloatVector x = v.max(ERF_MIN_V).min(ERF_MAX_V);
        FloatVector x2 = x.mul(x);
        FloatVector p = x2.fma(ERF_P0, ERF_P1);
        p = x2.fma(p, ERF_P2);
        p = x2.fma(p, ERF_P3);
        p = x2.fma(p, ERF_P4);
        p = x2.fma(p, ERF_P5);
        p = x2.fma(p, ERF_P6);
        FloatVector q = x2.fma(ERF_Q0, ERF_Q1);
        q = x2.fma(q, ERF_Q2);
        q = x2.fma(q, ERF_Q3);
        q = x2.fma(q, ERF_Q4);
        return x.mul(p).div(q);
    }
}
