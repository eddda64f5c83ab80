package dev.brisk.data.preprocessing;

import java.util.SplittableRandom;

/**
 * Keras' augmentation {@code factor}: a number {@code f} means {@code [-f, f]}, a pair {@code (lower, upper)} that
 * range; draws are uniform in it.
 */
record FactorRange(double lower, double upper) {

    /** {@code [lower, upper]} checked to lie in {@code [min, max]}, or an error naming {@code who} and the argument. */
    static FactorRange of(double lower, double upper, double min, double max, String who, String argument) {
        if (!(lower <= upper) || lower < min || upper > max || !Double.isFinite(lower) || !Double.isFinite(upper)) {
            throw new IllegalArgumentException(who + ": " + argument + " must be a range [lower, upper] with "
                    + min + " <= lower <= upper <= " + max + ", got [" + lower + ", " + upper + "]");
        }
        return new FactorRange(lower, upper);
    }

    /** A uniform draw in the range (always one draw from {@code random}, so streams stay aligned). */
    double draw(SplittableRandom random) {
        return lower + (upper - lower) * random.nextDouble();
    }
}
