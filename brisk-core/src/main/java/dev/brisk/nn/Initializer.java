package dev.brisk.nn;

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
        return new NamedInitializer("GlorotUniform", NamedInitializer.config("seed", null),
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
        return new NamedInitializer("HeNormal", NamedInitializer.config("seed", null),
                (shape, fanIn, fanOut, seed) -> {
            // Keras divides by the std of a unit normal truncated at +-2 so the result has the intended std.
            double std = Math.sqrt(2.0 / Math.max(1, fanIn)) / 0.87962566103423978;
            SplittableRandom r = new SplittableRandom(seed);
            float[] v = new float[shape.size()];
            for (int i = 0; i < v.length; i++) {
                double x;
                do {
                    x = gaussian(r);
                } while (Math.abs(x) > 2);
                v[i] = (float) (x * std);
            }
            return Tensor.wrap(v, 0, shape);
        });
    }

    /**
     * Initializes every weight to 0.
     *
     * @return the initializer
     */
    static Initializer zeros() {
        return new NamedInitializer("Zeros", NamedInitializer.config(),
                (shape, fanIn, fanOut, seed) -> Tensor.zeros(shape));
    }

    /**
     * Initializes every weight to 1.
     *
     * @return the initializer
     */
    static Initializer ones() {
        return new NamedInitializer("Ones", NamedInitializer.config(), constant(1f));
    }

    /**
     * Initializes every weight to {@code value}.
     *
     * @param value the value of every element
     * @return the initializer
     */
    static Initializer constant(float value) {
        return new NamedInitializer("Constant", NamedInitializer.config("value", value),
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
        return new NamedInitializer("Orthogonal", NamedInitializer.config("gain", 1f, "seed", null),
                (shape, fanIn, fanOut, seed) -> {
            int cols = shape.rank() == 0 ? 1 : shape.dim(-1);
            int rows = cols == 0 ? 0 : shape.size() / cols;
            int tall = Math.max(rows, cols);
            int narrow = Math.min(rows, cols);
            SplittableRandom r = new SplittableRandom(seed);
            double[][] q = new double[narrow][tall];
            for (int i = 0; i < tall; i++) {
                for (int j = 0; j < narrow; j++) {
                    q[j][i] = gaussian(r);
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

    private static double gaussian(SplittableRandom r) {
        double u1 = r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(Math.max(u1, 1e-300))) * Math.cos(2 * Math.PI * u2);
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
                NamedInitializer.config("minval", min, "maxval", max, "seed", null),
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
