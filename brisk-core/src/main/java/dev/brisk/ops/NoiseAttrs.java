package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * A draw of normal noise ({@link OpType#RANDOM_NORMAL}): its shape, its standard deviation, and the salt that is
 * mixed with each step's seed (distinct per layer, as dropout's).
 *
 * @param shape the output shape
 * @param stddev the standard deviation (mean 0)
 * @param salt the layer's own seed
 */
public record NoiseAttrs(Shape shape, float stddev, long salt) implements Attrs {
}
