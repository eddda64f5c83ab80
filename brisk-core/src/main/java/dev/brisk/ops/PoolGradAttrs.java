package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/** A pooling gradient: the forward attributes and the shape of the pooled input. */
public record PoolGradAttrs(PoolAttrs pool, Shape resultShape) implements Attrs {
}
