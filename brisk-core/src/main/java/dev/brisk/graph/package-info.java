/**
 * The op builder: {@link dev.brisk.graph.Graph} is what every layer, loss and optimizer emits its ops into (eager
 * graphs run each op as it is added, symbolic ones are traced for the planner), and {@link dev.brisk.graph.Autodiff}
 * adds the reverse-mode gradient ops to the same graph.
 *
 * <p>SPI for authors of custom layers, losses and optimizers; the layer above {@code exec} and {@code eager}.
 */
package dev.brisk.graph;
