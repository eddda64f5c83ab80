/**
 * Keras' losses as graph compositions: {@link dev.brisk.losses.Loss} and the factory
 * {@link dev.brisk.losses.Losses}.
 *
 * <p>Public API; the layer above {@code data}.
 */
package dev.brisk.losses;
