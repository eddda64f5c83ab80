package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;

/** The hand-written vector exp, log and tanh against {@link Math} over their ranges and at the edges. */
class VectorMathTest {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    private static float[] apply(UnaryOperator<FloatVector> f, float[] x) {
        float[] y = new float[x.length];
        for (int i = 0; i < x.length; i += S.length()) {
            f.apply(FloatVector.fromArray(S, x, i, S.indexInRange(i, x.length)))
                    .intoArray(y, i, S.indexInRange(i, x.length));
        }
        return y;
    }

    private static float[] uniform(int n, float lo, float hi, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) (lo + (hi - lo) * r.nextDouble());
        }
        return x;
    }

    /** Every value within {@code ulps} float ulps of the double-precision reference. */
    private static void assertUlps(String name, UnaryOperator<FloatVector> f, DoubleUnaryOperator ref, float[] x,
                                   int ulps) {
        float[] y = apply(f, x);
        for (int i = 0; i < x.length; i++) {
            float expected = (float) ref.applyAsDouble(x[i]);
            if (Float.isNaN(expected) || Float.isInfinite(expected) || expected == 0f) {
                assertEquals(expected, y[i], name + "(" + x[i] + ")");
                continue;
            }
            float err = Math.abs(y[i] - expected) / Math.ulp(expected);
            assertTrue(err <= ulps, name + "(" + x[i] + ") = " + y[i] + ", expected " + expected + " (" + err
                    + " ulps)");
        }
    }

    @Test
    void expIsWithinTwoUlpsOverTheNormalRange() {
        assertUlps("exp", VectorMath::exp, Math::exp, uniform(100_003, -87f, 88.7f, 1), 2);
        assertUlps("exp", VectorMath::exp, Math::exp, uniform(10_001, -1f, 1f, 2), 2);
    }

    @Test
    void expEdges() {
        float[] x = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 89f, 1000f, -88f, -1000f,
            88.72f, 1e-8f, -1e-8f};
        float[] y = apply(VectorMath::exp, x);
        assertEquals(1f, y[0]);
        assertEquals(1f, y[1]);
        assertTrue(Float.isNaN(y[2]));
        assertEquals(Float.POSITIVE_INFINITY, y[3]);
        assertEquals(0f, y[4]);
        assertEquals(Float.POSITIVE_INFINITY, y[5]);
        assertEquals(Float.POSITIVE_INFINITY, y[6]);
        assertEquals(0f, y[7]);
        assertEquals(0f, y[8]);
        assertEquals((float) Math.exp(88.72f), y[9], Math.ulp((float) Math.exp(88.72f)) * 2);
        assertEquals(1f, y[10]);
        assertEquals(1f, y[11], 1e-7f);
    }

    @Test
    void logIsWithinTwoUlps() {
        assertUlps("log", VectorMath::log, Math::log, uniform(100_003, 1e-6f, 1e6f, 3), 2);
        assertUlps("log", VectorMath::log, Math::log, uniform(10_001, 0.5f, 2f, 4), 2);
        assertUlps("log", VectorMath::log, Math::log, uniform(10_001, 1e-37f, 1e-30f, 5), 2);
        float[] x = {1f, 0f, -1f, Float.NaN, Float.POSITIVE_INFINITY, Float.MAX_VALUE, Float.MIN_NORMAL};
        float[] y = apply(VectorMath::log, x);
        assertEquals(0f, y[0]);
        assertEquals(Float.NEGATIVE_INFINITY, y[1]);
        assertTrue(Float.isNaN(y[2]));
        assertTrue(Float.isNaN(y[3]));
        assertEquals(Float.POSITIVE_INFINITY, y[4]);
        assertEquals((float) Math.log(Float.MAX_VALUE), y[5], 1e-4f);
        assertEquals((float) Math.log(Float.MIN_NORMAL), y[6], 1e-4f);
    }

    @Test
    void tanhIsCloseEverywhere() {
        assertUlps("tanh", VectorMath::tanh, Math::tanh, uniform(100_003, -0.625f, 0.625f, 6), 3);
        float[] x = uniform(100_003, -20f, 20f, 7);
        float[] y = apply(VectorMath::tanh, x);
        for (int i = 0; i < x.length; i++) {
            assertEquals(Math.tanh(x[i]), y[i], 2e-7, "tanh(" + x[i] + ")");
        }
        float[] edges = apply(VectorMath::tanh, new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f,
            Float.NaN});
        assertEquals(1f, edges[0]);
        assertEquals(-1f, edges[1]);
        assertEquals(0f, edges[2]);
        assertTrue(Float.isNaN(edges[3]));
    }
}
