package dev.brisk.ops.image;

import java.util.SplittableRandom;

/**
 * Keras' augmentation {@code factor}: a number {@code f} means {@code [-f, f]}, a pair {@code (lower, upper)} that
 * range; draws are uniform in it.
 *
 * @param lower the lowest value
 * @param upper the highest value
 */
public record FactorRange(double lower, double upper) {

    /**
     * {@code [lower, upper]} checked to lie in {@code [min, max]}, or an error naming {@code who} and the argument.
     *
     * @param lower the lowest value
     * @param upper the highest value
     * @param min the least allowed lower bound
     * @param max the greatest allowed upper bound
     * @param who the layer or map function, for the error
     * @param argument Keras' argument name, for the error
     * @return the range
     */
    public static FactorRange of(double lower, double upper, double min, double max, String who, String argument) {
        if (!(lower <= upper) || lower < min || upper > max || !Double.isFinite(lower) || !Double.isFinite(upper)) {
            throw new IllegalArgumentException(who + ": " + argument + " must be a range [lower, upper] with "
                    + min + " <= lower <= upper <= " + max + ", got [" + lower + ", " + upper + "]");
        }
        return new FactorRange(lower, upper);
    }

    /**
     * Keras' {@code (lower, upper)} fractions of the image's height or width, checked to be a pair in
     * {@code [-1, 1]}, or an error naming {@code who} and the argument.
     *
     * @param pair {@code {lower, upper}}
     * @param who the layer or map function, for the error
     * @param argument Keras' argument name, for the error
     * @return the range
     */
    public static FactorRange fractions(double[] pair, String who, String argument) {
        if (pair == null || pair.length != 2) {
            throw new IllegalArgumentException(who + ": " + argument + " must be {lower, upper}, got "
                    + (pair == null ? "null" : pair.length + " numbers"));
        }
        return of(pair[0], pair[1], -1, 1, who, argument);
    }

    /**
     * A uniform draw in the range (always one draw from {@code random}, so streams stay aligned).
     *
     * @param random the generator
     * @return the draw
     */
    public double draw(SplittableRandom random) {
        return lower + (upper - lower) * random.nextDouble();
    }
}
