package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;

/**
 * Keras 3's {@code reduce_weighted_values}: per-step loss values times their sample's weight and the padding mask,
 * then reduced as the loss's {@link Reduction} says. The default reduction keeps {@link MaskedMean}'s formulas (and
 * the loss's own mean when there is neither weight nor mask), so choosing it changes no result.
 */
final class Reductions {
    private Reductions() {
    }

    /**
     * Whether {@code r} gives the default mean: {@code mean} is computed as {@code sum_over_batch_size} by Keras,
     * and {@code mean_with_sample_weight} divides by the mask's sum (the same count) when there are no weights.
     */
    static boolean isDefault(Reduction r, Node weights) {
        return r == Reduction.SUM_OVER_BATCH_SIZE || r == Reduction.MEAN
                || r == Reduction.MEAN_WITH_SAMPLE_WEIGHT && weights == null;
    }

    /**
     * The reduced loss of per-step {@code values}.
     *
     * @param mask 1 for real steps and 0 for padding, one per value, or null
     * @param weights one weight per sample, shape {@code (batch)}, or null
     * @throws IllegalArgumentException naming the loss and the shapes when the mask or weights do not fit
     */
    static Node reduce(Graph g, Node values, Node mask, Node weights, Reduction r, String loss) {
        if (isDefault(r, weights)) {
            if (weights != null) {
                return MaskedMean.weighted(g, values, mask, weights, loss);
            }
            return mask == null ? g.meanAll(values) : MaskedMean.of(g, values, mask, loss);
        }
        int n = values.shape().size();
        if (mask != null && mask.shape().size() != n) {
            throw new IllegalArgumentException("loss " + loss + ": the predictions' mask " + mask.shape()
                    + " does not fit the per-step loss values " + values.shape());
        }
        Node m = mask == null ? null : mask.shape().equals(values.shape()) ? mask : g.reshape(mask, values.shape());
        Node weighted = values;
        Node w = null;
        Shape rows = null;
        if (weights != null) {
            int batch = weights.shape().size();
            int per = n / Math.max(1, batch);
            if (values.shape().rank() == 0 || per * batch != n) {
                throw new IllegalArgumentException("loss " + loss + ": " + batch + " sample weights do not fit the "
                        + "per-step loss values " + values.shape());
            }
            // Each sample's weight applies to all of its steps.
            rows = Shape.of(batch, per);
            w = g.reshape(weights, Shape.of(batch, 1));
            weighted = g.reshape(g.mul(g.reshape(values, rows), w), values.shape());
        }
        if (m != null) {
            weighted = g.mul(weighted, m);
        }
        return switch (r) {
            case NONE -> weighted;
            case SUM -> g.sumAll(weighted);
            case MEAN_WITH_SAMPLE_WEIGHT -> {
                // The weights' sum counts each sample once per step it has (per unmasked step with a mask).
                Node total = m == null ? g.scale(g.sumAll(w), n / rows.dim(0))
                        : g.sumAll(g.mul(g.reshape(m, rows), w));
                yield divideNoNan(g, g.sumAll(weighted), total);
            }
            default -> throw new IllegalStateException("reduction " + r + " is the default mean");
        };
    }

    /** {@code a / b}, or 0 where {@code b} is 0 (Keras' {@code divide_no_nan}). */
    private static Node divideNoNan(Graph g, Node a, Node b) {
        Node nonZero = g.binary(BinaryFn.GREATER, g.unary(UnaryFn.ABS, b), g.constant(0f));
        Node safe = g.add(b, g.addScalar(g.neg(nonZero), 1f));
        return g.mul(g.div(a, safe), nonZero);
    }
}
