/**
 * Tensors: {@link dev.brisk.tensor.Shape} (with NumPy broadcasting), {@link dev.brisk.tensor.DType} and
 * {@link dev.brisk.tensor.Tensor}, a shape over a window of a {@code float[]}.
 *
 * <p>Public API, at the bottom layer of {@code brisk-core}: every other package may use it and it uses none of them.
 */
package dev.brisk.tensor;
