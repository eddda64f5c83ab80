/**
 * TensorBoard output: {@link dev.brisk.io.tensorboard.EventFileWriter} writes scalars and
 * {@link dev.brisk.io.tensorboard.Histogram}s to event files, and {@link dev.brisk.io.tensorboard.ProfileTraces}
 * puts a profile's Chrome trace where TensorBoard's profile plugin reads it.
 *
 * <p>Public API, used by the {@code TensorBoard} callback; same layer as {@code io}.
 */
package dev.brisk.io.tensorboard;
