/**
 * The Keras-style model API: {@link dev.brisk.nn.Layer}, {@link dev.brisk.nn.Model} (functional, built from
 * {@link dev.brisk.nn.Input}s), {@link dev.brisk.nn.Sequential}, the training options {@link dev.brisk.nn.Fit},
 * initializers and regularizers. Training loops compile each step to a plan, or run it eagerly.
 *
 * <p>Public API, the entry point of the library; the layer above {@code callbacks}.
 */
package dev.brisk.nn;
