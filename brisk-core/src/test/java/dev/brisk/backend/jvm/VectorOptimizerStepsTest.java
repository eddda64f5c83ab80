package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The vector kernels of Adam, SGD (plain and with a weight decay), Adagrad, Adadelta, Adamax, Nadam, Lion, AMSGrad
 * and RMSprop (plain, with momentum and centring) give
 * the scalar reference's bits (the same operation order), at sizes below, at and above one vector and across the
 * parallel split, from offsets into larger arrays, over three steps with and without a weight decay.
 */
class VectorOptimizerStepsTest {
    private static final Kernels SCALAR = new ScalarKernels();
    private static final Kernels VECTOR = new VectorKernels();
    private static final int[] SIZES = {1, 7, 17, 1003, 70001};

    /** One optimizer's step on both kernels: {@code state[0]} is p, the rest its slots (null for a slot not used). */
    private interface Step {
        void run(Kernels k, float[] g, float[][] state, int n, float decay);
    }

    private final Random random = new Random(28);

    /** Runs {@code step} three times on copies of the same state, then compares every array's bits. */
    private void check(String what, int slots, float slotLo, float slotHi, Step step) {
        float[][] ranges = new float[slots][];
        Arrays.fill(ranges, new float[] {slotLo, slotHi});
        check(what, ranges, step);
    }

    /** As above, each slot drawn from its own range {@code {lo, hi}}. */
    private void check(String what, float[][] ranges, Step step) {
        int slots = ranges.length;
        withBudgets(() -> {
            for (int n : SIZES) {
                for (float decay : new float[] {0f, 1e-3f}) {
                    float[][] s = new float[1 + slots][];
                    s[0] = uniform(random, 3 + n, -1, 1);
                    for (int i = 1; i <= slots; i++) {
                        s[i] = uniform(random, 3 + i + n, ranges[i - 1][0], ranges[i - 1][1]);
                    }
                    float[][] v = new float[s.length][];
                    for (int i = 0; i < s.length; i++) {
                        v[i] = s[i].clone();
                    }
                    float[] before = s[0].clone();
                    for (int t = 0; t < 3; t++) {
                        float[] g = uniform(random, 2 + n, -1, 1);
                        step.run(SCALAR, g, s, n, decay);
                        step.run(VECTOR, g, v, n, decay);
                    }
                    assertFalse(Arrays.equals(before, s[0]), what + ": the parameters did not move");
                    for (int i = 0; i < s.length; i++) {
                        assertArrayEquals(s[i], v[i], what + " n=" + n + " decay=" + decay + " array " + i);
                    }
                }
            }
        });
    }

    @Test
    void sgdWithWeightDecay() {
        check("sgd", 1, -0.1f, 0.1f, (k, g, s, n, d) -> k.sgdStep(s[0], 3, g, 2, null, 0, n, 0.01f, 0f, false, d));
        check("sgd momentum", 1, -0.1f, 0.1f, (k, g, s, n, d) -> k.sgdStep(s[0], 3, g, 2, s[1], 4, n, 0.01f, 0.9f,
                false, d));
        check("sgd nesterov", 1, -0.1f, 0.1f, (k, g, s, n, d) -> k.sgdStep(s[0], 3, g, 2, s[1], 4, n, 0.01f, 0.9f,
                true, d));
    }

    /** FTRL at Keras' power -0.5 (vector roots), at 0 and at -0.25 (the scalar loop inside the vector kernel). */
    @Test
    void ftrl() {
        for (float power : new float[] {-0.5f, 0f, -0.25f}) {
            check("ftrl power " + power, new float[][] {{0.1f, 1f}, {-1f, 1f}}, (k, g, s, n, d) -> k.ftrlStep(s[0], 3,
                    g, 2, s[1], 4, s[2], 5, n, 0.1f, power, 0.3f, 10.02f, 0.06f, d));
        }
    }

    /** Adam, SGD and RMSprop too: their tails and chunk ends run the same padded path as the others'. */
    @Test
    void adamSgdAndRmsprop() {
        check("adam", 2, 0f, 0.01f, (k, g, s, n, d) -> k.adamStep(s[0], 3, g, 2, s[1], 4, s[2], 5, n, 1e-3f, 0.9f,
                0.999f, 1e-7f, d));
        check("sgd plain", 0, 0f, 0f, (k, g, s, n, d) -> k.sgdStep(s[0], 3, g, 2, null, 0, n, 0.01f, 0f, false, 0f));
        check("rmsprop plain", 1, 0f, 0.01f, (k, g, s, n, d) -> k.rmspropStep(s[0], 3, g, 2, s[1], 4, n, 1e-3f, 0.9f,
                1e-7f));
    }

    @Test
    void adagrad() {
        check("adagrad", 1, 0.1f, 1f, (k, g, s, n, d) -> k.adagradStep(s[0], 3, g, 2, s[1], 4, n, 0.01f, 1e-7f, d));
    }

    @Test
    void adadelta() {
        check("adadelta", 2, 0f, 0.01f, (k, g, s, n, d) -> k.adadeltaStep(s[0], 3, g, 2, s[1], 4, s[2], 5, n, 1f,
                0.95f, 1e-7f, d));
    }

    @Test
    void adamax() {
        check("adamax", 2, 0f, 0.1f, (k, g, s, n, d) -> k.adamaxStep(s[0], 3, g, 2, s[1], 4, s[2], 5, n, 0.01f, 0.9f,
                0.999f, 1e-7f, d));
    }

    @Test
    void nadam() {
        check("nadam", 2, 0f, 0.01f, (k, g, s, n, d) -> k.nadamStep(s[0], 3, g, 2, s[1], 4, s[2], 5, n, 0.05f,
                0.02f, 1.2f, 0.9f, 0.999f, 1e-7f, d));
    }

    @Test
    void lion() {
        check("lion", 1, -0.1f, 0.1f, (k, g, s, n, d) -> k.lionStep(s[0], 3, g, 2, s[1], 4, n, 0.01f, 0.9f, 0.99f,
                d));
    }

    @Test
    void amsgrad() {
        check("amsgrad", 3, 0f, 0.01f, (k, g, s, n, d) -> k.amsgradStep(s[0], 3, g, 2, s[1], 4, s[2], 5, s[3], 6, n,
                0.01f, 0.9f, 0.999f, 1e-7f, d));
    }

    @Test
    void rmspropWithMomentumAndCentring() {
        check("rmsprop decay only", 1, 0f, 0.01f, (k, g, s, n, d) -> k.rmspropFullStep(s[0], 3, g, 2, s[1], 4, null,
                0, null, 0, n, 0.01f, 0.9f, 0f, 1e-7f, d));
        check("rmsprop momentum", 2, 0f, 0.01f, (k, g, s, n, d) -> k.rmspropFullStep(s[0], 3, g, 2, s[1], 4, s[2], 5,
                null, 0, n, 0.01f, 0.9f, 0.9f, 1e-7f, d));
        // slots: mean square, momentum, mean gradient. A mean square of at least 1 stays above the square of a
        // mean gradient that starts below 0.1 (|g| < 1), so the root's argument stays positive.
        check("rmsprop centred momentum", new float[][] {{1f, 2f}, {-0.01f, 0.01f}, {-0.1f, 0.1f}},
                (k, g, s, n, d) -> k.rmspropFullStep(s[0], 3, g, 2, s[1], 4, s[2], 5, s[3], 6, n, 0.01f, 0.9f, 0.9f,
                        1e-7f, d));
    }

    /**
     * Weights without a gradient (even lanes) whose moments start tiny: after 300 steps no state or weight is a
     * denormal float (TinyMoments' rule, which keeps vector instructions off the slow path), the scalar and vector
     * kernels still agree bit for bit, and the lanes with a gradient get ordinary updates.
     */
    @Test
    void decayingMomentsSkipTheDenormalsOnBothKernels() {
        record Case(String name, int slots, Step step) {
        }
        List<Case> cases = List.of(
                new Case("adadelta", 2, (k, g, s, n, d) -> k.adadeltaStep(s[0], 0, g, 0, s[1], 0, s[2], 0, n, 1f,
                        0.9f, 1e-7f, d)),
                new Case("adamax", 2, (k, g, s, n, d) -> k.adamaxStep(s[0], 0, g, 0, s[1], 0, s[2], 0, n, 1e-3f, 0.9f,
                        0.9f, 1e-7f, d)),
                new Case("nadam", 2, (k, g, s, n, d) -> k.nadamStep(s[0], 0, g, 0, s[1], 0, s[2], 0, n, 1e-3f, 1e-4f,
                        1f, 0.9f, 0.9f, 1e-7f, d)),
                new Case("lion", 1, (k, g, s, n, d) -> k.lionStep(s[0], 0, g, 0, s[1], 0, n, 1e-3f, 0.9f, 0.9f, d)),
                new Case("amsgrad", 3, (k, g, s, n, d) -> k.amsgradStep(s[0], 0, g, 0, s[1], 0, s[2], 0, s[3], 0, n,
                        1e-3f, 0.9f, 0.9f, 1e-7f, d)),
                new Case("rmsprop centred momentum", 3, (k, g, s, n, d) -> k.rmspropFullStep(s[0], 0, g, 0, s[1], 0,
                        s[2], 0, s[3], 0, n, 1e-3f, 0.9f, 0.9f, 1e-7f, d)));
        int n = 1003;
        for (Case c : cases) {
            Random r = new Random(5);
            float[] g = new float[n];
            for (int i = 1; i < n; i += 2) {
                g[i] = (float) (1e-3 * r.nextGaussian());
            }
            float[][] s = new float[1 + c.slots()][n];
            for (int i = 0; i < n; i++) {
                s[0][i] = (float) (0.05 * r.nextGaussian());
                for (int j = 1; j <= c.slots(); j++) {
                    // dead lanes: anywhere from 1e-28 down into the denormals; live lanes ordinary
                    s[j][i] = i % 2 == 0 ? (float) Math.pow(10, -28 - 18 * r.nextDouble()) : 1e-4f;
                }
            }
            if (c.name().equals("amsgrad")) {
                // the running maximum never decays: it starts at 0, as Keras', and only takes normal v's
                Arrays.fill(s[3], 0f);
            }
            float[][] v = new float[s.length][];
            for (int j = 0; j < s.length; j++) {
                v[j] = s[j].clone();
            }
            for (int step = 0; step < 300; step++) {
                c.step().run(SCALAR, g, s, n, 0f);
                c.step().run(VECTOR, g, v, n, 0f);
            }
            for (int j = 0; j < s.length; j++) {
                assertArrayEquals(s[j], v[j], c.name() + " array " + j);
                for (int i = 0; i < n; i++) {
                    float x = s[j][i];
                    assertTrue(x == 0 || Math.abs(x) >= Float.MIN_NORMAL,
                            c.name() + " array " + j + "[" + i + "] is a denormal: " + x);
                }
            }
        }
    }
}
