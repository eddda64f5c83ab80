package dev.brisk.nn;

import dev.brisk.ops.Node;

/** What a layer call needs besides its inputs: training or inference, and the step's random seed node. */
public record CallContext(boolean training, Node seed) {
}
