package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.parallel.ThreadBudget;
import java.util.Random;

/** Random inputs, tolerant and bit-exact comparisons and thread-budget sweeps for the kernel tests. */
final class Arrays2 {
    private Arrays2() {
    }

    /** {@code n} uniform values in {@code [lo, hi)}. */
    static float[] uniform(Random random, int n, float lo, float hi) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = lo + (hi - lo) * random.nextFloat();
        }
        return x;
    }

    /** Small integers, so that pooling windows contain ties. */
    static float[] levels(Random random, int n, int levels) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = random.nextInt(levels);
        }
        return x;
    }

    /**
     * Fails unless {@code |actual - expected| <= abs + rel |expected|} element by element (NaN matches NaN,
     * infinities must be equal), naming the first index that differs.
     */
    static void assertClose(String what, float[] expected, float[] actual, float rel, float abs) {
        if (expected.length != actual.length) {
            fail(what + ": lengths differ, " + expected.length + " vs " + actual.length);
        }
        for (int i = 0; i < expected.length; i++) {
            float e = expected[i];
            float a = actual[i];
            boolean ok = Float.isNaN(e) ? Float.isNaN(a)
                    : Float.isInfinite(e) ? e == a
                    : Math.abs(a - e) <= abs + rel * Math.abs(e);
            if (!ok) {
                fail(what + ": element " + i + " is " + a + ", expected " + e);
            }
        }
    }

    /** Fails unless the two arrays hold the same bits (so -0 is not 0), naming the first index that differs. */
    static void assertSameBits(String what, float[] expected, float[] actual) {
        if (expected.length != actual.length) {
            fail(what + ": lengths differ, " + expected.length + " vs " + actual.length);
        }
        for (int i = 0; i < expected.length; i++) {
            if (Float.floatToRawIntBits(expected[i]) != Float.floatToRawIntBits(actual[i])) {
                fail(what + ": element " + i + " is " + actual[i] + ", expected " + expected[i]);
            }
        }
    }

    /** Runs {@code body} once with a one-thread budget and once with two threads. */
    static void withBudgets(Runnable body) {
        try {
            for (int threads : new int[] {1, 2}) {
                ThreadBudget.set(threads);
                try {
                    body.run();
                } catch (AssertionError e) {
                    throw new AssertionError("with " + threads + " thread(s): " + e.getMessage(), e);
                }
            }
        } finally {
            ThreadBudget.reset();
        }
    }
}
