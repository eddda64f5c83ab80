package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;

/** Factories for the built-in losses, with Keras names and semantics (epsilon 1e-7 clipping of probabilities). */
public final class Losses {
    /** Keras' backend epsilon, used to clip probabilities away from 0 and 1. */
    public static final float EPSILON = 1e-7f;

    private Losses() {
    }

    /**
     * Cross-entropy between integer class labels and predictions (logits when {@code fromLogits}).
     *
     * @param fromLogits true when the model outputs raw scores (no softmax), which is more stable
     * @return the loss, named {@code sparse_categorical_crossentropy}
     */
    public static Loss sparseCategoricalCrossentropy(boolean fromLogits) {
        return loss("sparse_categorical_crossentropy", true, fromLogits, (g, labels, yPred) -> {
            Node logits = flattenClasses(g, yPred);
            Node index = g.reshape(labels, Shape.of(labels.shape().size()));
            if (fromLogits) {
                // One kernel each way instead of log-softmax, gather, negation and their gradients (the same loss,
                // bit for bit, but for the sign of an exact zero): small kernels each cost a pass over memory.
                return g.meanAll(g.sparseSoftmaxCrossEntropy(logits, index));
            }
            return g.neg(g.meanAll(g.gatherRows(logOfNormalized(g, logits), index)));
        });
    }

    /**
     * Sparse categorical cross-entropy on probabilities (Keras' default, {@code fromLogits = false}).
     *
     * @return the loss, named {@code sparse_categorical_crossentropy}
     */
    public static Loss sparseCategoricalCrossentropy() {
        return sparseCategoricalCrossentropy(false);
    }

    /**
     * Cross-entropy between one-hot (or soft) targets and predictions.
     *
     * @param fromLogits true when the model outputs raw scores (no softmax)
     * @return the loss, named {@code categorical_crossentropy}
     */
    public static Loss categoricalCrossentropy(boolean fromLogits) {
        return loss("categorical_crossentropy", false, fromLogits, (g, yTrue, yPred) -> {
            Node logProbs = fromLogits ? g.logSoftmax(yPred) : logOfNormalized(g, yPred);
            Node perSample = g.neg(g.sum(g.mul(matchShape(g, yTrue, yPred), logProbs), false, -1));
            return g.meanAll(perSample);
        });
    }

    /**
     * Categorical cross-entropy on probabilities ({@code fromLogits = false}).
     *
     * @return the loss, named {@code categorical_crossentropy}
     */
    public static Loss categoricalCrossentropy() {
        return categoricalCrossentropy(false);
    }

    /**
     * Binary cross-entropy, averaged over the last axis then the batch, as in Keras.
     *
     * @param fromLogits true when the model outputs raw scores (no sigmoid)
     * @return the loss, named {@code binary_crossentropy}
     */
    public static Loss binaryCrossentropy(boolean fromLogits) {
        return loss("binary_crossentropy", false, fromLogits, (g, yTrue, yPred) -> {
            Node z = matchShape(g, yTrue, yPred);
            Node perElement;
            if (fromLogits) {
                // max(x, 0) - x z + log(1 + exp(-|x|)): stable for large |x|.
                Node x = yPred;
                Node softplus = g.log(g.addScalar(g.unary(UnaryFn.EXP, g.neg(g.unary(UnaryFn.ABS, x))), 1f));
                perElement = g.add(g.sub(g.unary(UnaryFn.RELU, x), g.mul(x, z)), softplus);
            } else {
                Node p = g.unary(UnaryFn.CLIP_PROB, EPSILON, yPred);
                Node pos = g.mul(z, g.log(p));
                Node neg = g.mul(g.addScalar(g.neg(z), 1f), g.log(g.addScalar(g.neg(p), 1f)));
                perElement = g.neg(g.add(pos, neg));
            }
            return meanLastThenBatch(g, perElement);
        });
    }

    /**
     * Binary cross-entropy on probabilities ({@code fromLogits = false}).
     *
     * @return the loss, named {@code binary_crossentropy}
     */
    public static Loss binaryCrossentropy() {
        return binaryCrossentropy(false);
    }

    /**
     * Mean squared error.
     *
     * @return the loss, named {@code mean_squared_error}: the mean of {@code (yTrue - yPred)^2}
     */
    public static Loss meanSquaredError() {
        return loss("mean_squared_error", false, false, (g, yTrue, yPred) -> {
            return meanLastThenBatch(g, g.square(g.sub(yPred, matchShape(g, yTrue, yPred))));
        });
    }

    /**
     * Mean absolute error.
     *
     * @return the loss, named {@code mean_absolute_error}: the mean of {@code |yTrue - yPred|}
     */
    public static Loss meanAbsoluteError() {
        return loss("mean_absolute_error", false, false, (g, yTrue, yPred) -> {
            return meanLastThenBatch(g, g.unary(UnaryFn.ABS, g.sub(yPred, matchShape(g, yTrue, yPred))));
        });
    }

    /** The body of a loss: the scalar loss of {@code yPred} against {@code yTrue}. */
    @FunctionalInterface
    private interface LossFn {
        Node compute(Graph g, Node yTrue, Node yPred);
    }

    private static Loss loss(String name, boolean sparseTargets, boolean fromLogits, LossFn fn) {
        return new Loss() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean sparseTargets() {
                return sparseTargets;
            }

            @Override
            public boolean fromLogits() {
                return fromLogits;
            }

            @Override
            public Node compute(Graph g, Node yTrue, Node yPred) {
                return fn.compute(g, yTrue, yPred);
            }
        };
    }

    private static Node meanLastThenBatch(Graph g, Node perElement) {
        if (perElement.shape().rank() <= 1) {
            return g.meanAll(perElement);
        }
        return g.meanAll(g.mean(perElement, false, -1));
    }

    /** Targets shaped like the predictions: (batch,) labels become (batch, 1) where the predictions are. */
    private static Node matchShape(Graph g, Node yTrue, Node yPred) {
        if (yTrue.shape().equals(yPred.shape())) {
            return yTrue;
        }
        if (yTrue.shape().size() == yPred.shape().size()) {
            return g.reshape(yTrue, yPred.shape());
        }
        throw new IllegalArgumentException("targets of shape " + yTrue.shape()
                + " do not match predictions of shape " + yPred.shape());
    }

    private static Node flattenClasses(Graph g, Node yPred) {
        if (yPred.shape().rank() == 2) {
            return yPred;
        }
        int classes = yPred.shape().dim(-1);
        return g.reshape(yPred, Shape.of(yPred.shape().size() / classes, classes));
    }

    /** log of probabilities renormalised over the last axis and clipped to [eps, 1 - eps], as Keras does. */
    private static Node logOfNormalized(Graph g, Node probs) {
        Node normalized = g.div(probs, g.sum(probs, true, -1));
        return g.log(g.unary(UnaryFn.CLIP_PROB, EPSILON, normalized));
    }
}
