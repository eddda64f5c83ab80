package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;

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
}
