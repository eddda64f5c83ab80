package dev.brisk.ops;

/** The fraction of units a DROPOUT node zeroes, and a salt that gives each dropout layer its own random stream. */
public record DropoutAttrs(float rate, long salt) implements Attrs {
}
