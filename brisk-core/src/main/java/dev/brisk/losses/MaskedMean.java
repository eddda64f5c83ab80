package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;

/** The mean of per-step loss values over the steps a mask keeps, Keras 3's reduction of a masked loss. */
final class MaskedMean {
    private MaskedMean() {
    }

    /**
     * {@code sum(values * mask) / max(sum(mask), 1)}. Keras divides by {@code sum(mask) + 1e-7}; flooring at one
     * step instead keeps the same 0 for a batch with no real step and divides by the exact count otherwise, so a
     * padded batch gives exactly the mean of the same steps without padding.
     *
     * @throws IllegalArgumentException naming the loss and both shapes when the mask does not fit the values
     */
    static Node of(Graph g, Node values, Node mask, String loss) {
        if (mask.shape().size() != values.shape().size()) {
            throw new IllegalArgumentException("loss " + loss + ": the predictions' mask " + mask.shape()
                    + " does not fit the per-step loss values " + values.shape());
        }
        Node m = mask.shape().equals(values.shape()) ? mask : g.reshape(mask, values.shape());
        Node kept = g.binary(BinaryFn.MAX, g.sumAll(m), g.constant(1f));
        return g.div(g.sumAll(g.mul(values, m)), kept);
    }

    /**
     * {@code sum(values * w) / count}, where {@code w} is each value's sample weight (times the mask, when there
     * is one) and {@code count} the number of values (without a mask: Keras' {@code sum_over_batch_size}) or of
     * unmasked steps, at least one.
     *
     * @throws IllegalArgumentException naming the loss and the shapes when the weights do not fit the values
     */
    static Node weighted(Graph g, Node values, Node mask, Node weights, String loss) {
        int batch = weights.shape().size();
        int per = values.shape().size() / Math.max(1, batch);
        if (values.shape().rank() == 0 || per * batch != values.shape().size()) {
            throw new IllegalArgumentException("loss " + loss + ": " + batch + " sample weights do not fit the "
                    + "per-step loss values " + values.shape());
        }
        Shape rows = Shape.of(batch, per);
        Node w = g.reshape(weights, Shape.of(batch, 1));
        Node v = g.mul(g.reshape(values, rows), w);
        if (mask == null) {
            return g.scale(g.sumAll(v), 1f / values.shape().size());
        }
        if (mask.shape().size() != values.shape().size()) {
            throw new IllegalArgumentException("loss " + loss + ": the predictions' mask " + mask.shape()
                    + " does not fit the per-step loss values " + values.shape());
        }
        Node m = g.reshape(mask, rows);
        Node kept = g.binary(BinaryFn.MAX, g.sumAll(m), g.constant(1f));
        return g.div(g.sumAll(g.mul(v, m)), kept);
    }
}
