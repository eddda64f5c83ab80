/**
 * Training callbacks with Keras' hooks: {@link dev.brisk.callbacks.Callback}, {@link dev.brisk.callbacks.History},
 * {@link dev.brisk.callbacks.ProgressBar}, {@link dev.brisk.callbacks.EarlyStopping},
 * {@link dev.brisk.callbacks.ModelCheckpoint}, {@link dev.brisk.callbacks.TensorBoard} and others. They see the
 * model through {@link dev.brisk.callbacks.TrainingTarget}.
 *
 * <p>Public API; the layer above {@code optimizers}.
 */
package dev.brisk.callbacks;
