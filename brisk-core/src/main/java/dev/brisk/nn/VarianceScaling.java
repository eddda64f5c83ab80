package dev.brisk.nn;

import dev.brisk.io.KerasObject;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Keras' {@code VarianceScaling} and the plain random initializers, drawn from a {@link SplittableRandom} of the
 * weight's seed. VarianceScaling divides {@code scale} by the fan its mode names ({@code fan_in}, {@code fan_out}
 * or their mean, at least 1), then draws from a normal truncated at two standard deviations whose standard
 * deviation is {@code sqrt(scale) / 0.8796...} (the truncation's shrinkage undone, so the variance is
 * {@code scale}), an untruncated normal of standard deviation {@code sqrt(scale)}, or a uniform in
 * {@code [-sqrt(3 scale), sqrt(3 scale)]}.
 */
final class VarianceScaling {
    /** The standard deviation of a unit normal truncated at +-2 (Keras' constant). */
    static final double TRUNCATED_STD = 0.87962566103423978;

    private VarianceScaling() {
    }

    static Initializer of(float scale, String mode, String distribution) {
        if (!(scale > 0) || Float.isInfinite(scale)) {
            throw new IllegalArgumentException("VarianceScaling: scale must be a positive number, got " + scale);
        }
        String m = mode.toLowerCase(Locale.ROOT);
        String d = distribution.toLowerCase(Locale.ROOT);
        if (!m.equals("fan_in") && !m.equals("fan_out") && !m.equals("fan_avg")) {
            throw new IllegalArgumentException("VarianceScaling: mode must be fan_in, fan_out or fan_avg, got '"
                    + mode + "'");
        }
        if (!d.equals("truncated_normal") && !d.equals("untruncated_normal") && !d.equals("uniform")) {
            throw new IllegalArgumentException("VarianceScaling: distribution must be truncated_normal, "
                    + "untruncated_normal or uniform, got '" + distribution + "'");
        }
        return new NamedInitializer("VarianceScaling", KerasObject.config("scale", scale, "mode", m,
                "distribution", d, "seed", null), (shape, fanIn, fanOut, seed) -> {
            double fan = switch (m) {
                case "fan_in" -> fanIn;
                case "fan_out" -> fanOut;
                default -> (fanIn + fanOut) / 2.0;
            };
            double s = scale / Math.max(1, fan);
            return switch (d) {
                case "truncated_normal" -> truncatedNormal(shape, 0, Math.sqrt(s) / TRUNCATED_STD, seed);
                case "untruncated_normal" -> normal(shape, 0, Math.sqrt(s), seed);
                default -> uniform(shape, -Math.sqrt(3 * s), Math.sqrt(3 * s), seed);
            };
        });
    }

    /** A VarianceScaling under the Keras class name of one of its presets (GlorotNormal, HeUniform, ...). */
    static Initializer renamed(String className, float scale, String mode, String distribution) {
        Initializer vs = of(scale, mode, distribution);
        return new NamedInitializer(className, KerasObject.config("seed", null), vs);
    }

    static void checkStd(String what, float stddev) {
        if (!(stddev >= 0) || Float.isInfinite(stddev)) {
            throw new IllegalArgumentException(what + ": stddev must be a finite number >= 0, got " + stddev);
        }
    }

    /** Normal samples of {@code mean} and {@code std}. */
    static Tensor normal(Shape shape, double mean, double std, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[shape.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (mean + std * gaussian(r));
        }
        return Tensor.wrap(v, 0, shape);
    }

    /** Normal samples of {@code mean} and {@code std}, those beyond two standard deviations drawn again. */
    static Tensor truncatedNormal(Shape shape, double mean, double std, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[shape.size()];
        for (int i = 0; i < v.length; i++) {
            double x;
            do {
                x = gaussian(r);
            } while (Math.abs(x) > 2);
            v[i] = (float) (mean + std * x);
        }
        return Tensor.wrap(v, 0, shape);
    }

    /** Uniform samples in {@code [lo, hi)}. */
    static Tensor uniform(Shape shape, double lo, double hi, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[shape.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (lo + r.nextDouble() * (hi - lo));
        }
        return Tensor.wrap(v, 0, shape);
    }

    /** A unit normal sample (Box-Muller). */
    static double gaussian(SplittableRandom r) {
        double u1 = r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(Math.max(u1, 1e-300))) * Math.cos(2 * Math.PI * u2);
    }
}
