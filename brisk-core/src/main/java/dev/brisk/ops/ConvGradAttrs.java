package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * A convolution gradient: the forward attributes and the shape of the gradient it produces.
 *
 * @param conv the forward convolution's attributes
 * @param resultShape the shape of the gradient: the convolution's input or kernel shape
 */
public record ConvGradAttrs(ConvAttrs conv, Shape resultShape) implements Attrs {
}
