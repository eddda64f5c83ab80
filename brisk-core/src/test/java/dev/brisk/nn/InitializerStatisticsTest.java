package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.io.KerasObject;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keras' initializers by their moments on 240 000 draws (fan-in 400, fan-out 600): the mean within 5 standard errors
 * of its target, the variance within 3% (its standard error is about 0.3%), and the range (truncated at two
 * deviations, or the uniform limit). A wrong fan or a missing truncation correction moves the variance by 20% or
 * more, so each check can fail.
 */
class InitializerStatisticsTest {
    private static final int FAN_IN = 400;
    private static final int FAN_OUT = 600;

    private static Tensor draw(Initializer init) {
        return init.create(Shape.of(FAN_IN, FAN_OUT), FAN_IN, FAN_OUT, 1234L);
    }

    /** Checks mean, variance and the largest |x - mean|; returns that largest deviation. */
    private static double moments(String what, Tensor t, double mean, double variance) {
        int n = t.size();
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += t.get(i);
        }
        double m = sum / n;
        double ss = 0;
        double max = 0;
        for (int i = 0; i < n; i++) {
            double d = t.get(i) - m;
            ss += d * d;
            max = Math.max(max, Math.abs(t.get(i) - mean));
        }
        double var = ss / (n - 1);
        assertEquals(mean, m, 5 * Math.sqrt(variance / n), what + ": mean");
        assertEquals(variance, var, 0.03 * variance, what + ": variance");
        return max;
    }

    @Test
    void varianceScalingPresetsHaveKerasVariances() {
        double avg = (FAN_IN + FAN_OUT) / 2.0;
        double bound = 2 / VarianceScaling.TRUNCATED_STD; // truncation at 2 deviations of the pre-truncation normal
        double max = moments("glorotNormal", draw(Initializer.glorotNormal()), 0, 1 / avg);
        assertTrue(max <= bound * Math.sqrt(1 / avg) + 1e-6, "glorotNormal is truncated: " + max);
        max = moments("lecunNormal", draw(Initializer.lecunNormal()), 0, 1.0 / FAN_IN);
        assertTrue(max <= bound * Math.sqrt(1.0 / FAN_IN) + 1e-6, "lecunNormal is truncated: " + max);
        max = moments("heNormal", draw(Initializer.heNormal()), 0, 2.0 / FAN_IN);
        assertTrue(max <= bound * Math.sqrt(2.0 / FAN_IN) + 1e-6, "heNormal is truncated: " + max);

        double limit = Math.sqrt(6.0 / FAN_IN);
        max = moments("heUniform", draw(Initializer.heUniform()), 0, 2.0 / FAN_IN);
        assertTrue(max <= limit && max > 0.99 * limit, "heUniform fills [-" + limit + ", " + limit + "]: " + max);
        limit = Math.sqrt(3.0 / FAN_IN);
        max = moments("lecunUniform", draw(Initializer.lecunUniform()), 0, 1.0 / FAN_IN);
        assertTrue(max <= limit && max > 0.99 * limit, "lecunUniform fills its limit: " + max);
        limit = Math.sqrt(6.0 / (FAN_IN + FAN_OUT));
        max = moments("glorotUniform", draw(Initializer.glorotUniform()), 0, 2.0 / (FAN_IN + FAN_OUT));
        assertTrue(max <= limit && max > 0.99 * limit, "glorotUniform fills its limit: " + max);

        // untruncated: about 4.6% of draws lie beyond two deviations
        double var = 2.0 / FAN_OUT;
        max = moments("varianceScaling(2, fan_out, untruncated_normal)",
                draw(Initializer.varianceScaling(2f, "fan_out", "untruncated_normal")), 0, var);
        assertTrue(max > 3 * Math.sqrt(var), "untruncated draws reach past 3 deviations: " + max);
        moments("varianceScaling(0.5, fan_avg, uniform)", draw(Initializer.varianceScaling(0.5f, "fan_avg",
                "uniform")), 0, 0.5 / avg);
        moments("varianceScaling(3, fan_in, truncated_normal)", draw(Initializer.varianceScaling(3f, "fan_in",
                "truncated_normal")), 0, 3.0 / FAN_IN);
    }

    @Test
    void plainRandomInitializers() {
        moments("randomNormal(0.5, 0.2)", draw(Initializer.randomNormal(0.5f, 0.2f)), 0.5, 0.04);
        // truncated at 2 stddev, not rescaled: the variance is 0.7737 stddev^2 (Keras' TruncatedNormal)
        double max = moments("truncatedNormal(-1, 0.05)", draw(Initializer.truncatedNormal(-1f, 0.05f)), -1,
                0.05 * 0.05 * VarianceScaling.TRUNCATED_STD * VarianceScaling.TRUNCATED_STD);
        assertTrue(max <= 0.1 + 1e-6, "truncatedNormal stays within 2 stddev: " + max);
        moments("randomUniform(-0.3, 0.1)", draw(Initializer.randomUniform(-0.3f, 0.1f)), -0.1, 0.4 * 0.4 / 12);
    }

    @Test
    void orthogonalRowsOrColumnsAreOrthonormalTimesTheGain() {
        for (int[] dims : new int[][] {{30, 50}, {50, 30}, {3, 3, 4, 12}}) {
            Shape shape = Shape.of(dims);
            Tensor t = Initializer.orthogonal(2f).create(shape, 1, 1, 99L);
            int cols = dims[dims.length - 1];
            int rows = t.size() / cols;
            boolean wide = rows < cols;
            int n = Math.min(rows, cols);
            int len = Math.max(rows, cols);
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    double dot = 0;
                    for (int i = 0; i < len; i++) {
                        dot += wide ? (double) t.get(a * cols + i) * t.get(b * cols + i)
                                : (double) t.get(i * cols + a) * t.get(i * cols + b);
                    }
                    assertEquals(a == b ? 4.0 : 0.0, dot, 1e-4, Arrays.toString(dims) + " (" + a + ", " + b + ")");
                }
            }
        }
    }

    @Test
    void seedsAndConfigs() {
        Initializer init = Initializer.glorotNormal();
        Shape s = Shape.of(8, 8);
        assertArrayEquals(init.create(s, 8, 8, 1).toArray(), init.create(s, 8, 8, 1).toArray());
        assertFalse(Arrays.equals(init.create(s, 8, 8, 1).toArray(), init.create(s, 8, 8, 2).toArray()));
        // a seeded initializer ignores the seed the layer offers, as Keras' seed= does
        Initializer seeded = init.seeded(42);
        assertArrayEquals(seeded.create(s, 8, 8, 1).toArray(), seeded.create(s, 8, 8, 2).toArray());
        assertArrayEquals(init.create(s, 8, 8, 42).toArray(), seeded.create(s, 8, 8, 7).toArray());
        KerasObject k = (KerasObject) seeded;
        assertEquals("GlorotNormal", k.kerasClassName());
        assertEquals(42L, k.kerasConfig().get("seed"));
        KerasObject vs = (KerasObject) Initializer.varianceScaling(2f, "fan_out", "uniform");
        assertEquals("VarianceScaling", vs.kerasClassName());
        assertEquals(Map.of("scale", 2f, "mode", "fan_out", "distribution", "uniform"),
                Map.of("scale", vs.kerasConfig().get("scale"), "mode", vs.kerasConfig().get("mode"),
                        "distribution", vs.kerasConfig().get("distribution")));
        assertEquals("HeUniform", ((KerasObject) Initializer.heUniform()).kerasClassName());
        assertEquals("LecunNormal", ((KerasObject) Initializer.lecunNormal()).kerasClassName());
        assertEquals("TruncatedNormal", ((KerasObject) Initializer.truncatedNormal(0f, 0.05f)).kerasClassName());
        assertThrows(IllegalArgumentException.class, () -> Initializer.varianceScaling(1f, "fan_sum", "uniform"));
        assertThrows(IllegalArgumentException.class, () -> Initializer.varianceScaling(0f, "fan_in", "uniform"));
        assertThrows(IllegalArgumentException.class, () -> Initializer.zeros().seeded(1));
    }
}
