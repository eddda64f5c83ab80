package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * The target shape of RESHAPE and BROADCAST_TO.
 *
 * @param shape the target shape, batch axis included
 */
public record ShapeAttrs(Shape shape) implements Attrs {
}
