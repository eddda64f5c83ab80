package dev.brisk.nn;

import dev.brisk.ops.Node;

/**
 * What a layer call needs besides its inputs: training or inference, and the step's random seed node.
 *
 * @param training true in a training step (dropout drops, batch normalization uses batch statistics), false for
 *     inference
 * @param seed the scalar node holding the step's random seed, for layers that draw random numbers
 */
public record CallContext(boolean training, Node seed) {
}
