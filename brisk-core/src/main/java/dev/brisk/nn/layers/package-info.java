/**
 * The built-in layers ({@link dev.brisk.nn.layers.Dense}, {@link dev.brisk.nn.layers.Conv2D}, pooling,
 * {@link dev.brisk.nn.layers.BatchNormalization}, {@link dev.brisk.nn.layers.Dropout}, shape and merge layers) and
 * the {@link dev.brisk.nn.layers.Layers} factory.
 *
 * <p>Public API; the top layer of {@code brisk-core}.
 */
package dev.brisk.nn.layers;
