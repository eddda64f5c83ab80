package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * A pooling gradient: the forward attributes and the shape of the pooled input.
 *
 * @param pool the forward pooling's attributes
 * @param resultShape the shape of the pooling's input, which the gradient has
 */
public record PoolGradAttrs(PoolAttrs pool, Shape resultShape) implements Attrs {
}
