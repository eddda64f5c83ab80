package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Optimiser moments that decay without a gradient end at zero instead of passing through the denormal floats
 * (see {@link VectorOptimizers}), scalar and vector kernels alike and with the same bits, while ordinary values get
 * the plain update.
 */
class OptimizerDenormalTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final Kernels VECTOR = new VectorKernels();
    private static final int N = 1003;
    private static final int STEPS = 300;

    /** Even lanes get no gradient (a weight on an input that is always zero); odd lanes an ordinary one. */
    private static float[] gradient(Random random) {
        float[] g = new float[N];
        for (int i = 1; i < N; i += 2) {
            g[i] = (float) (1e-3 * random.nextGaussian());
        }
        return g;
    }

    /**
     * Moments as earlier gradients left them: even lanes anywhere from 1e-28 down to below the denormals, small
     * enough that {@link #STEPS} decays by 0.9 take each one below the smallest denormal.
     */
    private static float[] moment(Random random, boolean signed) {
        float[] m = new float[N];
        for (int i = 0; i < N; i++) {
            float magnitude = i % 2 == 0 ? (float) Math.pow(10, -28 - 18 * random.nextDouble()) : 1e-4f;
            m[i] = signed && random.nextBoolean() ? -magnitude : magnitude;
        }
        return m;
    }

    private static void assertNoDenormals(String what, float[] values) {
        for (int i = 0; i < values.length; i++) {
            float x = values[i];
            assertTrue(x == 0 || Math.abs(x) >= Float.MIN_NORMAL || Float.isNaN(x),
                    what + "[" + i + "] is a denormal: " + x);
        }
    }

    private static void assertDeadLanesZero(String what, float[] values) {
        for (int i = 0; i < values.length; i += 2) {
            assertEquals(0f, values[i], what + "[" + i + "] after " + STEPS + " steps without gradient");
        }
    }

    @Test
    void adamMomentsWithoutGradientEndAtZeroAndOrdinaryOnesGetThePlainUpdate() {
        withBudgets(() -> {
            Random random = new Random(11);
            float[] g = gradient(random);
            float[] p = new float[N];
            for (int i = 0; i < N; i++) {
                p[i] = (float) (0.05 * random.nextGaussian());
            }
            float[] m = moment(random, true);
            float[] v = moment(random, false);
            float[] pV = p.clone();
            float[] mV = m.clone();
            float[] vV = v.clone();
            float lrT = 1e-3f;
            float beta1 = 0.9f;
            float beta2 = 0.999f;
            float eps = 1e-7f;
            float[] plainM = new float[N];
            float[] plainP = new float[N];
            for (int step = 0; step < STEPS; step++) {
                // the plain update of the odd lanes, in the kernels' order of operations
                for (int i = 1; i < N; i += 2) {
                    plainM[i] = beta1 * m[i] + (1 - beta1) * g[i];
                    float plainV = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
                    plainP[i] = p[i] - lrT * plainM[i] / ((float) Math.sqrt(plainV) + eps);
                }
                SCALAR.adamStep(p, 0, g, 0, m, 0, v, 0, N, lrT, beta1, beta2, eps, 0f);
                VECTOR.adamStep(pV, 0, g, 0, mV, 0, vV, 0, N, lrT, beta1, beta2, eps, 0f);
                for (int i = 1; i < N; i += 2) {
                    assertEquals(plainM[i], m[i], "an ordinary moment is not touched, lane " + i);
                    assertEquals(plainP[i], p[i], "an ordinary weight gets the plain update, lane " + i);
                }
            }
            assertArrayEquals(p, pV, "weights: scalar and vector kernels");
            assertArrayEquals(m, mV, "first moments: scalar and vector kernels");
            assertArrayEquals(v, vV, "second moments: scalar and vector kernels");
            assertNoDenormals("m", m);
            assertNoDenormals("v", v);
            assertDeadLanesZero("m", m);
        });
    }

    @Test
    void adamWithoutLearningRateStillKeepsItsMoments() {
        float[] p = {0.5f, -0.25f};
        float[] g = {0.1f, 2e-3f};
        float[] m = {0.01f, 1e-30f};
        float[] v = {1e-4f, 1e-6f};
        float[] expectedM = {0.9f * m[0] + (1 - 0.9f) * g[0], 0.9f * m[1] + (1 - 0.9f) * g[1]};
        for (Kernels k : new Kernels[] {SCALAR, VECTOR}) {
            float[] pk = p.clone();
            float[] mk = m.clone();
            k.adamStep(pk, 0, g, 0, mk, 0, v.clone(), 0, 2, 0f, 0.9f, 0.999f, 1e-7f, 0f);
            assertArrayEquals(p, pk, "a zero learning rate leaves the weights");
            assertArrayEquals(expectedM, mk, "and still updates the first moments");
        }
    }

    @Test
    void sgdVelocityAndRmspropMeanSquareWithoutGradientEndAtZero() {
        withBudgets(() -> {
            for (boolean nesterov : new boolean[] {false, true}) {
                Random random = new Random(12);
                float[] g = gradient(random);
                float[] p = new float[N];
                float[] vel = moment(random, true);
                float[] pV = p.clone();
                float[] velV = vel.clone();
                for (int step = 0; step < STEPS; step++) {
                    SCALAR.sgdStep(p, 0, g, 0, vel, 0, N, 0.01f, 0.9f, nesterov, 0f);
                    VECTOR.sgdStep(pV, 0, g, 0, velV, 0, N, 0.01f, 0.9f, nesterov, 0f);
                }
                assertArrayEquals(p, pV, "sgd weights, nesterov=" + nesterov);
                assertArrayEquals(vel, velV, "sgd velocity, nesterov=" + nesterov);
                assertNoDenormals("velocity", vel);
                assertDeadLanesZero("velocity", vel);
            }
            Random random = new Random(13);
            float[] g = gradient(random);
            float[] p = new float[N];
            float[] ms = moment(random, false);
            float[] pV = p.clone();
            float[] msV = ms.clone();
            for (int step = 0; step < STEPS; step++) {
                SCALAR.rmspropStep(p, 0, g, 0, ms, 0, N, 1e-3f, 0.9f, 1e-7f);
                VECTOR.rmspropStep(pV, 0, g, 0, msV, 0, N, 1e-3f, 0.9f, 1e-7f);
            }
            assertArrayEquals(p, pV, "rmsprop weights");
            assertArrayEquals(ms, msV, "rmsprop mean squares");
            assertNoDenormals("mean square", ms);
            assertDeadLanesZero("mean square", ms);
        });
    }
}
