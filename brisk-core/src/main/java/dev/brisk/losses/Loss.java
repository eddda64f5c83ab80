package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** A loss function: builds the scalar loss (mean over the batch, Keras' default reduction) into a graph. */
public interface Loss {
    /**
     * The Keras-style name ("sparse_categorical_crossentropy").
     *
     * @return the loss's name in logs and history
     */
    String name();

    /**
     * The scalar loss of predictions {@code yPred} against targets {@code yTrue}.
     *
     * @param g the graph the loss nodes are added to
     * @param yTrue the targets: class indexes when {@link #sparseTargets()}, else shaped like {@code yPred}
     * @param yPred the model's outputs, batch first
     * @return a scalar node: the loss averaged over the batch
     */
    Node compute(Graph g, Node yTrue, Node yPred);

    /**
     * Whether targets are class indexes (one per sample) rather than tensors shaped like the predictions.
     *
     * @return true for sparse losses, which take one class index per sample
     */
    default boolean sparseTargets() {
        return false;
    }

    /**
     * Whether the loss reads its predictions as logits (unnormalized scores) rather than probabilities, as Keras'
     * {@code from_logits}; false for losses that are not cross-entropies.
     *
     * @return true when the predictions are logits
     */
    default boolean fromLogits() {
        return false;
    }
}
