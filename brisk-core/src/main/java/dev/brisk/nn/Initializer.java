package dev.brisk.nn;

import dev.brisk.io.KerasObject;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;

/** Makes the initial value of a weight from its shape and fan-in/fan-out. */
@FunctionalInterface
public interface Initializer {
    /**
     * A new weight tensor of {@code shape}, for a layer with the given fan-in and fan-out, drawn from {@code seed}.
     *
     * @param shape the weight's shape
     * @param fanIn input units feeding each output (e.g. {@code kh * kw * inChannels} for a convolution)
     * @param fanOut output units each input feeds
     * @param seed the random seed; the same seed gives the same tensor
     * @return a new tensor
     */
    Tensor create(Shape shape, int fanIn, int fanOut, long seed);

    /**
     * Glorot (Xavier) uniform: U(-l, l) with l = sqrt(6 / (fanIn + fanOut)); Keras' default for kernels.
     *
     * @return the initializer
     */
    static Initializer glorotUniform() {
        return new NamedInitializer("GlorotUniform", KerasObject.config("seed", null),
                (shape, fanIn, fanOut, seed) -> {
            double limit = Math.sqrt(6.0 / Math.max(1, fanIn + fanOut));
            SplittableRandom r = new SplittableRandom(seed);
            float[] v = new float[shape.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) ((r.nextDouble() * 2 - 1) * limit);
            }
            return Tensor.wrap(v, 0, shape);
        });
    }

    /**
     * He normal: truncated normal (at 2 std) with std sqrt(2 / fanIn), as Keras.
     *
     * @return the initializer
     */
    static Initializer heNormal() {
        return new NamedInitializer("HeNormal", KerasObject.config("seed", null),
                (shape, fanIn, fanOut, seed) -> {
            // Keras divides by the std of a unit normal truncated at +-2 so the result has the intended std.
            double std = Math.sqrt(2.0 / Math.max(1, fanIn)) / VarianceScaling.TRUNCATED_STD;
            return VarianceScaling.truncatedNormal(shape, 0, std, seed);
        });
    }

    /**
     * Keras' {@code VarianceScaling(scale, mode, distribution)}: see {@link VarianceScaling} for the draw. Keras'
     * defaults are 1.0, {@code fan_in} and {@code truncated_normal}.
     *
     * @param scale the variance before it is divided by the fan, positive
     * @param mode {@code fan_in}, {@code fan_out} or {@code fan_avg}
     * @param distribution {@code truncated_normal}, {@code untruncated_normal} or {@code uniform}
     * @return the initializer
     */
    static Initializer varianceScaling(float scale, String mode, String distribution) {
        return VarianceScaling.of(scale, mode, distribution);
    }

    /**
     * Glorot (Xavier) normal: truncated normal of variance {@code 2 / (fanIn + fanOut)}, as Keras'
     * {@code GlorotNormal} ({@code VarianceScaling(1, fan_avg, truncated_normal)}).
     *
     * @return the initializer
     */
    static Initializer glorotNormal() {
        return VarianceScaling.renamed("GlorotNormal", 1f, "fan_avg", "truncated_normal");
    }

    /**
     * He uniform: U(-l, l) with {@code l = sqrt(6 / fanIn)}, as Keras' {@code HeUniform}.
     *
     * @return the initializer
     */
    static Initializer heUniform() {
        return VarianceScaling.renamed("HeUniform", 2f, "fan_in", "uniform");
    }

    /**
     * LeCun normal: truncated normal of variance {@code 1 / fanIn}, as Keras' {@code LecunNormal} (SELU's).
     *
     * @return the initializer
     */
    static Initializer lecunNormal() {
        return VarianceScaling.renamed("LecunNormal", 1f, "fan_in", "truncated_normal");
    }

    /**
     * LeCun uniform: U(-l, l) with {@code l = sqrt(3 / fanIn)}, as Keras' {@code LecunUniform}.
     *
     * @return the initializer
     */
    static Initializer lecunUniform() {
        return VarianceScaling.renamed("LecunUniform", 1f, "fan_in", "uniform");
    }

    /**
     * Normal samples, as Keras' {@code RandomNormal} (defaults: mean 0, stddev 0.05).
     *
     * @param mean the mean
     * @param stddev the standard deviation, at least 0
     * @return the initializer
     */
    static Initializer randomNormal(float mean, float stddev) {
        VarianceScaling.checkStd("RandomNormal", stddev);
        return new NamedInitializer("RandomNormal", KerasObject.config("mean", mean, "stddev", stddev, "seed",
                null), (shape, fanIn, fanOut, seed) -> VarianceScaling.normal(shape, mean, stddev, seed));
    }

    /**
     * Normal samples within two standard deviations of the mean (others drawn again), as Keras'
     * {@code TruncatedNormal} (defaults: mean 0, stddev 0.05; the samples' own deviation is about 0.88 stddev).
     *
     * @param mean the mean
     * @param stddev the standard deviation before truncation, at least 0
     * @return the initializer
     */
    static Initializer truncatedNormal(float mean, float stddev) {
        VarianceScaling.checkStd("TruncatedNormal", stddev);
        return new NamedInitializer("TruncatedNormal", KerasObject.config("mean", mean, "stddev", stddev,
                "seed", null), (shape, fanIn, fanOut, seed) -> VarianceScaling.truncatedNormal(shape, mean, stddev,
                seed));
    }

    /**
     * Keras' {@code Orthogonal(gain)}: {@link #orthogonal()} times {@code gain}.
     *
     * @param gain the factor applied to the orthogonal matrix
     * @return the initializer
     */
    static Initializer orthogonal(float gain) {
        Initializer unit = orthogonal();
        return new NamedInitializer("Orthogonal", KerasObject.config("gain", gain, "seed", null),
                (shape, fanIn, fanOut, seed) -> {
            Tensor t = unit.create(shape, fanIn, fanOut, seed);
            float[] v = t.toArray();
            for (int i = 0; i < v.length; i++) {
                v[i] *= gain;
            }
            return Tensor.wrap(v, 0, shape);
        });
    }

    /**
     * This initializer with a fixed seed, as Keras' {@code seed=} argument: every weight it makes, whichever layer
     * asks, is drawn from {@code seed} rather than from the model's random stream, and the saved config records it.
     *
     * @param seed the seed
     * @return the seeded initializer
     */
    default Initializer seeded(long seed) {
        return NamedInitializer.seeded(this, seed);
    }

    /**
     * Initializes every weight to 0.
     *
     * @return the initializer
     */
    static Initializer zeros() {
        return new NamedInitializer("Zeros", KerasObject.config(),
                (shape, fanIn, fanOut, seed) -> Tensor.zeros(shape));
    }

    /**
     * Initializes every weight to 1.
     *
     * @return the initializer
     */
    static Initializer ones() {
        return new NamedInitializer("Ones", KerasObject.config(), constant(1f));
    }

    /**
     * Initializes every weight to {@code value}.
     *
     * @param value the value of every element
     * @return the initializer
     */
    static Initializer constant(float value) {
        return new NamedInitializer("Constant", KerasObject.config("value", value),
                (shape, fanIn, fanOut, seed) -> {
            float[] v = new float[shape.size()];
            java.util.Arrays.fill(v, value);
            return Tensor.wrap(v, 0, shape);
        });
    }

    /**
     * Orthogonal, as Keras' {@code Orthogonal(gain=1)} (the default of recurrent kernels): the last axis is the
     * columns, the others the rows; a standard normal matrix of the taller orientation is orthonormalized by Q R
     * with R's diagonal made positive (Gram-Schmidt in double, which gives that Q), then transposed back if it was
     * wide, so the rows (wide) or the columns (tall) are orthonormal.
     *
     * @return the initializer
     */
    static Initializer orthogonal() {
        return new NamedInitializer("Orthogonal", KerasObject.config("gain", 1f, "seed", null),
                (shape, fanIn, fanOut, seed) -> {
            int cols = shape.rank() == 0 ? 1 : shape.dim(-1);
            int rows = cols == 0 ? 0 : shape.size() / cols;
            int tall = Math.max(rows, cols);
            int narrow = Math.min(rows, cols);
            SplittableRandom r = new SplittableRandom(seed);
            double[][] q = new double[narrow][tall];
            for (int i = 0; i < tall; i++) {
                for (int j = 0; j < narrow; j++) {
                    q[j][i] = VarianceScaling.gaussian(r);
                }
            }
            for (int j = 0; j < narrow; j++) {
                for (int p = 0; p < j; p++) {
                    double dot = 0;
                    for (int i = 0; i < tall; i++) {
                        dot += q[p][i] * q[j][i];
                    }
                    for (int i = 0; i < tall; i++) {
                        q[j][i] -= dot * q[p][i];
                    }
                }
                double norm = 0;
                for (int i = 0; i < tall; i++) {
                    norm += q[j][i] * q[j][i];
                }
                norm = Math.sqrt(norm);
                for (int i = 0; i < tall; i++) {
                    q[j][i] /= norm;
                }
            }
            float[] v = new float[shape.size()];
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    v[i * cols + j] = (float) (rows >= cols ? q[j][i] : q[i][j]);
                }
            }
            return Tensor.wrap(v, 0, shape);
        });
    }

    /**
     * Uniform in {@code [min, max)} (Keras' {@code RandomUniform}; {@code Embedding}'s default is -0.05 to 0.05).
     *
     * @param min the lower bound
     * @param max the upper bound
     * @return the initializer
     */
    static Initializer randomUniform(float min, float max) {
        return new NamedInitializer("RandomUniform",
                KerasObject.config("minval", min, "maxval", max, "seed", null),
                (shape, fanIn, fanOut, seed) -> {
            SplittableRandom r = new SplittableRandom(seed);
            float[] v = new float[shape.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (min + r.nextDouble() * (max - min));
            }
            return Tensor.wrap(v, 0, shape);
        });
    }
}
