package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;

/**
 * The graph formulas of Keras' regression, probability and margin losses, each written as Keras 3 writes it (in
 * {@code keras/src/losses/losses.py}) from the elementwise ops and reductions that already have gradients, so the
 * losses need no kernels of their own. Each returns the per-sample loss (the mean or sum over the last axis);
 * {@link Losses} averages it over the batch.
 */
final class LossBodies {
    private LossBodies() {
    }

    /** Huber: {@code 0.5 e^2} where {@code |e| <= delta}, else {@code delta (|e| - 0.5 delta)}; mean over the last axis. */
    static Node huber(Graph g, Node yTrue, Node yPred, float delta) {
        Node absError = g.unary(UnaryFn.ABS, g.sub(yPred, yTrue));
        // min(|e|, delta) is the quadratic part and the rest the linear part: the same piecewise function as Keras'
        // where(), continuous with its first derivative at |e| = delta.
        Node quadratic = g.binary(BinaryFn.MIN, absError, g.constant(delta));
        Node linear = g.sub(absError, quadratic);
        return g.add(g.scale(g.square(quadratic), 0.5f), g.scale(linear, delta));
    }

    /** log(cosh(e)) as {@code e + softplus(-2e) - log 2}, stable for large {@code |e|}. */
    static Node logCosh(Graph g, Node yTrue, Node yPred) {
        Node error = g.sub(yPred, yTrue);
        return g.addScalar(g.add(error, g.softplus(g.scale(error, -2f))), (float) -Math.log(2));
    }

    /** Kullback-Leibler divergence {@code sum(t log(t / p))} over the last axis, both clipped to [1e-7, 1]. */
    static Node klDivergence(Graph g, Node yTrue, Node yPred) {
        Node t = clip(g, yTrue, Losses.EPSILON, 1f);
        Node p = clip(g, yPred, Losses.EPSILON, 1f);
        return g.sum(g.mul(t, g.sub(g.log(t), g.log(p))), false, -1);
    }

    /** Poisson: {@code p - t log(p + 1e-7)}. */
    static Node poisson(Graph g, Node yTrue, Node yPred) {
        return g.sub(yPred, g.mul(yTrue, g.log(g.addScalar(yPred, Losses.EPSILON))));
    }

    /** Hinge ({@code squared}: its square): {@code max(1 - t p, 0)}, targets of 0/1 read as -1/1 as Keras does. */
    static Node hinge(Graph g, Node yTrue, Node yPred, boolean squared) {
        Node margin = g.unary(UnaryFn.RELU, g.addScalar(g.neg(g.mul(hingeLabels(g, yTrue), yPred)), 1f));
        return squared ? g.square(margin) : margin;
    }

    /**
     * Keras' {@code convert_binary_labels_to_hinge}: when every target is 0 or 1 they become -1 and 1 ({@code 2t - 1}),
     * otherwise (already -1/1) they stay. Decided in the graph over the whole batch, as Keras decides it per call.
     */
    private static Node hingeLabels(Graph g, Node yTrue) {
        // t (t - 1) is zero exactly for 0 and 1: the batch is binary when the sum of its squares is zero.
        Node offBinary = g.sumAll(g.square(g.mul(yTrue, g.addScalar(yTrue, -1f))));
        Node isBinary = g.addScalar(g.neg(g.binary(BinaryFn.GREATER, offBinary, g.constant(0f))), 1f);
        return g.add(yTrue, g.mul(isBinary, g.addScalar(yTrue, -1f)));
    }

    /** Categorical hinge: {@code max(max((1 - t) p) - sum(t p) + 1, 0)} over the last axis. */
    static Node categoricalHinge(Graph g, Node yTrue, Node yPred) {
        Node positive = g.sum(g.mul(yTrue, yPred), false, -1);
        Node negative = g.reduce(dev.brisk.ops.ReduceFn.MAX, g.mul(g.addScalar(g.neg(yTrue), 1f), yPred), false, -1);
        return g.unary(UnaryFn.RELU, g.addScalar(g.sub(negative, positive), 1f));
    }

    /** Negative cosine similarity of the last axis, both sides L2-normalised with Keras' floor of 1e-12. */
    static Node cosineSimilarity(Graph g, Node yTrue, Node yPred) {
        return g.neg(g.sum(g.mul(l2Normalize(g, yTrue), l2Normalize(g, yPred)), false, -1));
    }

    private static Node l2Normalize(Graph g, Node x) {
        Node squares = g.sum(g.square(x), true, -1);
        return g.mul(x, g.unary(UnaryFn.RSQRT, g.binary(BinaryFn.MAX, squares, g.constant(1e-12f))));
    }

    /** Mean absolute percentage error's elements: {@code 100 |t - p| / max(|t|, 1e-7)}. */
    static Node absolutePercentage(Graph g, Node yTrue, Node yPred) {
        Node denominator = g.binary(BinaryFn.MAX, g.unary(UnaryFn.ABS, yTrue), g.constant(Losses.EPSILON));
        return g.scale(g.div(g.unary(UnaryFn.ABS, g.sub(yTrue, yPred)), denominator), 100f);
    }

    /** Mean squared logarithmic error's elements: {@code (log(max(p, 1e-7) + 1) - log(max(t, 1e-7) + 1))^2}. */
    static Node squaredLogarithmic(Graph g, Node yTrue, Node yPred) {
        Node logPred = g.log(g.addScalar(g.binary(BinaryFn.MAX, yPred, g.constant(Losses.EPSILON)), 1f));
        Node logTrue = g.log(g.addScalar(g.binary(BinaryFn.MAX, yTrue, g.constant(Losses.EPSILON)), 1f));
        return g.square(g.sub(logPred, logTrue));
    }

    /** Label smoothing: {@code t (1 - s) + s / classes} (Keras' binary form uses {@code classes = 2}). */
    static Node smoothLabels(Graph g, Node yTrue, float smoothing, int classes) {
        if (smoothing == 0) {
            return yTrue;
        }
        return g.addScalar(g.scale(yTrue, 1 - smoothing), smoothing / classes);
    }

    private static Node clip(Graph g, Node x, float low, float high) {
        return g.binary(BinaryFn.MIN, g.binary(BinaryFn.MAX, x, g.constant(low)), g.constant(high));
    }
}
