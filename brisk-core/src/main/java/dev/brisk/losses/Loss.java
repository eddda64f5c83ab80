package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/**
 * A loss function: builds the loss of a batch into a graph, reduced as {@link #reduction()} says (by default the
 * mean over the batch, Keras' {@code sum_over_batch_size}).
 */
public interface Loss {
    /**
     * The Keras-style name ("sparse_categorical_crossentropy").
     *
     * @return the loss's name in logs and history
     */
    String name();

    /**
     * The loss of predictions {@code yPred} against targets {@code yTrue}, reduced by {@link #reduction()}.
     *
     * @param g the graph the loss nodes are added to
     * @param yTrue the targets: class indexes when {@link #sparseTargets()}, else shaped like {@code yPred}
     * @param yPred the model's outputs, batch first
     * @return a scalar node (the loss averaged over the batch by default), or the per-step values for
     *     {@link Reduction#NONE}
     */
    Node compute(Graph g, Node yTrue, Node yPred);

    /**
     * The loss of each step before the batch mean: one value per sample, or per step of a sequence output
     * ({@code yPred}'s shape without its last axis; the sparse cross-entropy gives them as one row per step). The
     * mean of these values is {@link #compute}'s scalar. The built-in losses all give them; a loss that does not
     * returns null and cannot be used on an output that carries a mask.
     *
     * @param g the graph the loss nodes are added to
     * @param yTrue the targets, as for {@link #compute}
     * @param yPred the model's outputs, batch first
     * @return the per-step loss values, or null when this loss only gives the scalar
     */
    default Node perStep(Graph g, Node yTrue, Node yPred) {
        return null;
    }

    /**
     * The scalar loss of an output that carries a padding mask (Keras' {@code _keras_mask}, e.g. from
     * {@code Embedding(maskZero)} through {@code LSTM(returnSequences)}): the per-step values times the mask,
     * summed, over the number of unmasked steps, as Keras 3's {@code reduce_weighted_values} does with the mask as
     * sample weight. Masked steps add nothing to the loss or its gradients.
     *
     * @param g the graph the loss nodes are added to
     * @param yTrue the targets, as for {@link #compute}
     * @param yPred the model's outputs, batch first
     * @param mask 1 for real steps and 0 for padding, one value per per-step loss value
     * @return a scalar node: the loss averaged over the unmasked steps (or reduced by {@link #reduction()})
     * @throws IllegalArgumentException if this loss gives no per-step values or the mask does not fit them
     */
    default Node computeMasked(Graph g, Node yTrue, Node yPred, Node mask) {
        Node values = perStep(g, yTrue, yPred);
        if (values == null) {
            throw new IllegalArgumentException("loss " + name() + " gives no per-step values (Loss.perStep), so it"
                    + " cannot skip the masked steps of predictions " + yPred.shape());
        }
        return Reductions.reduce(g, values, mask, null, reduction(), name());
    }

    /**
     * The scalar loss with each sample weighted (Keras' {@code sample_weight}, reduction
     * {@code sum_over_batch_size}): the per-step values times their sample's weight, summed, over the number of
     * values; with a padding mask, over the number of unmasked steps instead (Keras 3 folds the mask into the
     * weights); other {@link #reduction()}s sum the weighted values or divide by the weights' sum. A sample of weight
     * 0 adds nothing to the loss or its gradients.
     *
     * @param g the graph the loss nodes are added to
     * @param yTrue the targets, as for {@link #compute}
     * @param yPred the model's outputs, batch first
     * @param mask the predictions' padding mask, or null
     * @param weights one weight per sample, shape {@code (batch)}
     * @return a scalar node: the weighted loss (the weighted per-step values for {@link Reduction#NONE})
     * @throws IllegalArgumentException if this loss gives no per-step values or the weights do not fit them
     */
    default Node computeWeighted(Graph g, Node yTrue, Node yPred, Node mask, Node weights) {
        Node values = perStep(g, yTrue, yPred);
        if (values == null) {
            throw new IllegalArgumentException("loss " + name() + " gives no per-step values (Loss.perStep), so it"
                    + " cannot weight the samples of predictions " + yPred.shape());
        }
        return Reductions.reduce(g, values, mask, weights, reduction(), name());
    }

    /**
     * How the per-step values become the loss (Keras' {@code reduction}); {@link Reduction#SUM_OVER_BATCH_SIZE}
     * unless the loss was made with {@link #withReduction}.
     *
     * @return this loss's reduction
     */
    default Reduction reduction() {
        return Reduction.SUM_OVER_BATCH_SIZE;
    }

    /**
     * This loss with another reduction, as Keras' {@code reduction=} argument of every loss (e.g.
     * {@code Losses.meanSquaredError().withReduction(Reduction.SUM)}). A built-in loss records the reduction in
     * saved models; a loss of one's own is reduced from its {@link #perStep} values, which it must then give.
     *
     * @param reduction the reduction to apply
     * @return a loss with the same values, reduced by {@code reduction}
     */
    default Loss withReduction(Reduction reduction) {
        if (reduction == reduction()) {
            return this;
        }
        return new ReducedLoss(this, reduction);
    }

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
