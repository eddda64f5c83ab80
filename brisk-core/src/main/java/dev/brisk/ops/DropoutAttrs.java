package dev.brisk.ops;

/**
 * The fraction of units a DROPOUT node zeroes, and a salt that gives each dropout layer its own random stream.
 *
 * @param rate the fraction zeroed, from 0 to 1 (exclusive)
 * @param salt mixed into the step's seed, distinct per dropout layer
 */
public record DropoutAttrs(float rate, long salt) implements Attrs {
}
