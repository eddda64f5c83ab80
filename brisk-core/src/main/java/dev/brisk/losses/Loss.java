package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** A loss function: builds the scalar loss (mean over the batch, Keras' default reduction) into a graph. */
public interface Loss {
    /** The Keras-style name ("sparse_categorical_crossentropy"). */
    String name();

    /** The scalar loss of predictions {@code yPred} against targets {@code yTrue}. */
    Node compute(Graph g, Node yTrue, Node yPred);

    /** Whether targets are class indexes (one per sample) rather than tensors shaped like the predictions. */
    default boolean sparseTargets() {
        return false;
    }

    /**
     * Whether the loss reads its predictions as logits (unnormalized scores) rather than probabilities, as Keras'
     * {@code from_logits}; false for losses that are not cross-entropies.
     */
    default boolean fromLogits() {
        return false;
    }
}
