/**
 * The op IR: {@link dev.brisk.ops.OpType} (the primitive ops), {@link dev.brisk.ops.Node}, the attribute records,
 * {@link dev.brisk.ops.ShapeInference} and {@link dev.brisk.ops.Variable}, plus the vocabulary the kernel SPI takes
 * ({@link dev.brisk.ops.UnaryFn}, {@link dev.brisk.ops.BinaryFn}, {@link dev.brisk.ops.ReduceFn},
 * {@link dev.brisk.ops.ConvGeometry}, {@link dev.brisk.ops.PoolGeometry}).
 *
 * <p>SPI for authors of custom layers and backends; it sits below {@code backend}, which takes its types.
 */
package dev.brisk.ops;
