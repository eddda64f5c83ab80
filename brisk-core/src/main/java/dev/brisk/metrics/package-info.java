/**
 * Host-side streaming metrics, computed from each step's predictions as Keras does: {@link dev.brisk.metrics.Metric},
 * {@link dev.brisk.metrics.Metrics} (factory) and {@link dev.brisk.metrics.MetricSpec}.
 *
 * <p>Public API; the layer above {@code losses}.
 */
package dev.brisk.metrics;
