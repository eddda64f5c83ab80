package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/** A convolution gradient: the forward attributes and the shape of the gradient it produces. */
public record ConvGradAttrs(ConvAttrs conv, Shape resultShape) implements Attrs {
}
