/**
 * Optimizers as fused update ops plus host-computed per-step hyper-parameters: {@link dev.brisk.optimizers.Sgd},
 * {@link dev.brisk.optimizers.Adam}, {@link dev.brisk.optimizers.RmsProp}, the factory
 * {@link dev.brisk.optimizers.Optimizers} and {@link dev.brisk.optimizers.LearningRateSchedule}.
 *
 * <p>Public API; the layer above {@code metrics}.
 */
package dev.brisk.optimizers;
