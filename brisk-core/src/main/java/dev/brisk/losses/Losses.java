package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.io.KerasObject;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

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
        LossFn perRow = (g, labels, yPred) -> {
            Node logits = flattenClasses(g, yPred);
            Node index = g.reshape(labels, Shape.of(labels.shape().size()));
            if (fromLogits) {
                // One kernel each way instead of log-softmax, gather, negation and their gradients (the same loss,
                // bit for bit, but for the sign of an exact zero): small kernels each cost a pass over memory.
                return g.sparseSoftmaxCrossEntropy(logits, index);
            }
            return g.neg(g.gatherRows(logOfNormalized(g, logits), index));
        };
        if (fromLogits) {
            return loss("sparse_categorical_crossentropy", true, true, perRow, "from_logits", true, "ignore_class",
                    null);
        }
        // The unmasked loss negates the mean rather than each row, as it always has (one negation, not a pass).
        return loss("sparse_categorical_crossentropy", true, false, perRow, (g, labels, yPred) -> {
            Node logits = flattenClasses(g, yPred);
            Node index = g.reshape(labels, Shape.of(labels.shape().size()));
            return g.neg(g.meanAll(g.gatherRows(logOfNormalized(g, logits), index)));
        }, "from_logits", false, "ignore_class", null);
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
        return categoricalCrossentropy(fromLogits, 0f);
    }

    /**
     * Cross-entropy between one-hot (or soft) targets and predictions, with Keras' label smoothing: the targets
     * become {@code t (1 - s) + s / classes}.
     *
     * @param fromLogits true when the model outputs raw scores (no softmax)
     * @param labelSmoothing {@code s}, in [0, 1]
     * @return the loss, named {@code categorical_crossentropy}
     */
    public static Loss categoricalCrossentropy(boolean fromLogits, float labelSmoothing) {
        checkSmoothing(labelSmoothing);
        return loss("categorical_crossentropy", false, fromLogits, (g, yTrue, yPred) -> {
            Node logProbs = fromLogits ? g.logSoftmax(yPred) : logOfNormalized(g, yPred);
            Node targets = LossBodies.smoothLabels(g, matchShape(g, yTrue, yPred), labelSmoothing,
                    yPred.shape().dim(-1));
            return g.neg(g.sum(g.mul(targets, logProbs), false, -1));
        }, "from_logits", fromLogits, "label_smoothing", labelSmoothing, "axis", -1);
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
        return binaryCrossentropy(fromLogits, 0f);
    }

    /**
     * Binary cross-entropy with Keras' label smoothing: the targets become {@code t (1 - s) + s / 2}.
     *
     * @param fromLogits true when the model outputs raw scores (no sigmoid)
     * @param labelSmoothing {@code s}, in [0, 1]
     * @return the loss, named {@code binary_crossentropy}
     */
    public static Loss binaryCrossentropy(boolean fromLogits, float labelSmoothing) {
        checkSmoothing(labelSmoothing);
        return loss("binary_crossentropy", false, fromLogits, (g, yTrue, yPred) -> {
            Node z = LossBodies.smoothLabels(g, matchShape(g, yTrue, yPred), labelSmoothing, 2);
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
            return meanLast(g, perElement);
        }, "from_logits", fromLogits, "label_smoothing", labelSmoothing, "axis", -1);
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
            return meanLast(g, g.square(g.sub(yPred, matchShape(g, yTrue, yPred))));
        });
    }

    /**
     * Mean absolute error.
     *
     * @return the loss, named {@code mean_absolute_error}: the mean of {@code |yTrue - yPred|}
     */
    public static Loss meanAbsoluteError() {
        return loss("mean_absolute_error", false, false, (g, yTrue, yPred) -> {
            return meanLast(g, g.unary(UnaryFn.ABS, g.sub(yPred, matchShape(g, yTrue, yPred))));
        });
    }

    /**
     * Keras' {@code Huber} loss: quadratic for errors up to {@code delta}, linear beyond.
     *
     * @param delta where the loss turns from quadratic to linear (Keras' default 1)
     * @return the loss, named {@code huber_loss}
     */
    public static Loss huber(float delta) {
        if (!(delta > 0)) {
            throw new IllegalArgumentException("Huber's delta must be positive, got " + delta);
        }
        return elementwise("huber_loss", (g, t, p) -> LossBodies.huber(g, t, p, delta), "delta", delta);
    }

    /**
     * Keras' {@code Huber} loss with {@code delta = 1}.
     *
     * @return the loss, named {@code huber_loss}
     */
    public static Loss huber() {
        return huber(1f);
    }

    /**
     * Keras' {@code LogCosh}: the mean of {@code log(cosh(yPred - yTrue))}.
     *
     * @return the loss, named {@code log_cosh}
     */
    public static Loss logCosh() {
        return elementwise("log_cosh", LossBodies::logCosh);
    }

    /**
     * Keras' {@code KLDivergence}: {@code sum(t log(t / p))} over the last axis, both clipped to [1e-7, 1].
     *
     * @return the loss, named {@code kl_divergence}
     */
    public static Loss klDivergence() {
        return perSample("kl_divergence", LossBodies::klDivergence);
    }

    /**
     * Keras' {@code Poisson}: the mean of {@code p - t log(p + 1e-7)}.
     *
     * @return the loss, named {@code poisson}
     */
    public static Loss poisson() {
        return elementwise("poisson", LossBodies::poisson);
    }

    /**
     * Keras' {@code Hinge}: the mean of {@code max(1 - t p, 0)}, targets -1/1 (0/1 targets are converted).
     *
     * @return the loss, named {@code hinge}
     */
    public static Loss hinge() {
        return elementwise("hinge", (g, t, p) -> LossBodies.hinge(g, t, p, false));
    }

    /**
     * Keras' {@code SquaredHinge}: the mean of {@code max(1 - t p, 0)^2}, targets -1/1 (0/1 are converted).
     *
     * @return the loss, named {@code squared_hinge}
     */
    public static Loss squaredHinge() {
        return elementwise("squared_hinge", (g, t, p) -> LossBodies.hinge(g, t, p, true));
    }

    /**
     * Keras' {@code CategoricalHinge}: {@code max(max((1 - t) p) - sum(t p) + 1, 0)} per sample, one-hot targets.
     *
     * @return the loss, named {@code categorical_hinge}
     */
    public static Loss categoricalHinge() {
        return perSample("categorical_hinge", LossBodies::categoricalHinge);
    }

    /**
     * Keras' {@code CosineSimilarity} loss: minus the cosine similarity of targets and predictions along the last
     * axis (so that minimising it aligns them).
     *
     * @return the loss, named {@code cosine_similarity}
     */
    public static Loss cosineSimilarity() {
        return perSample("cosine_similarity", LossBodies::cosineSimilarity, "axis", -1);
    }

    /**
     * Keras' {@code MeanAbsolutePercentageError}: the mean of {@code 100 |t - p| / max(|t|, 1e-7)}.
     *
     * @return the loss, named {@code mean_absolute_percentage_error}
     */
    public static Loss meanAbsolutePercentageError() {
        return elementwise("mean_absolute_percentage_error", LossBodies::absolutePercentage);
    }

    /**
     * Keras' {@code MeanSquaredLogarithmicError}: the mean of the squared difference of {@code log(x + 1)}, both
     * sides floored at 1e-7.
     *
     * @return the loss, named {@code mean_squared_logarithmic_error}
     */
    public static Loss meanSquaredLogarithmicError() {
        return elementwise("mean_squared_logarithmic_error", LossBodies::squaredLogarithmic);
    }

    private static void checkSmoothing(float labelSmoothing) {
        if (!(labelSmoothing >= 0 && labelSmoothing <= 1)) {
            throw new IllegalArgumentException("label smoothing must be in [0, 1], got " + labelSmoothing);
        }
    }

    /** A loss whose body gives one value per element, averaged over the last axis and then the batch. */
    private static Loss elementwise(String name, LossFn perElement, Object... options) {
        return loss(name, false, false, (g, yTrue, yPred) ->
                meanLast(g, perElement.compute(g, matchShape(g, yTrue, yPred), yPred)), options);
    }

    /** A loss whose body reduces the last axis itself, giving one value per sample, averaged over the batch. */
    private static Loss perSample(String name, LossFn perSampleBody, Object... options) {
        return loss(name, false, false, (g, yTrue, yPred) ->
                perSampleBody.compute(g, matchShape(g, yTrue, yPred), yPred), options);
    }

    /** The body of a loss: the loss of {@code yPred} against {@code yTrue}, per step or as a scalar. */
    @FunctionalInterface
    private interface LossFn {
        Node compute(Graph g, Node yTrue, Node yPred);
    }

    /**
     * A loss whose scalar is the mean of its per-step values over the batch (and steps), Keras' reduction;
     * {@code options}: the Keras config entries beyond name and reduction, as alternating keys and values.
     */
    private static Loss loss(String name, boolean sparseTargets, boolean fromLogits, LossFn perStep,
                             Object... options) {
        return loss(name, sparseTargets, fromLogits, perStep,
                (g, yTrue, yPred) -> g.meanAll(perStep.compute(g, yTrue, yPred)), options);
    }

    private static Loss loss(String name, boolean sparseTargets, boolean fromLogits, LossFn perStep, LossFn fn,
                             Object... options) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("name", name);
        config.put("reduction", Reduction.SUM_OVER_BATCH_SIZE.kerasName());
        for (int i = 0; i < options.length; i += 2) {
            config.put((String) options[i], options[i + 1]);
        }
        return new BuiltIn(name, KERAS_CLASSES.get(name), Collections.unmodifiableMap(config), sparseTargets,
                fromLogits, perStep, fn, Reduction.SUM_OVER_BATCH_SIZE);
    }

    /** Keras' class of each built-in loss, by the loss's name. */
    private static final Map<String, String> KERAS_CLASSES = Map.ofEntries(
            Map.entry("sparse_categorical_crossentropy", "SparseCategoricalCrossentropy"),
            Map.entry("categorical_crossentropy", "CategoricalCrossentropy"),
            Map.entry("binary_crossentropy", "BinaryCrossentropy"),
            Map.entry("mean_squared_error", "MeanSquaredError"),
            Map.entry("mean_absolute_error", "MeanAbsoluteError"),
            Map.entry("huber_loss", "Huber"),
            Map.entry("log_cosh", "LogCosh"),
            Map.entry("kl_divergence", "KLDivergence"),
            Map.entry("poisson", "Poisson"),
            Map.entry("hinge", "Hinge"),
            Map.entry("squared_hinge", "SquaredHinge"),
            Map.entry("categorical_hinge", "CategoricalHinge"),
            Map.entry("cosine_similarity", "CosineSimilarity"),
            Map.entry("mean_absolute_percentage_error", "MeanAbsolutePercentageError"),
            Map.entry("mean_squared_logarithmic_error", "MeanSquaredLogarithmicError"));

    /**
     * A built-in loss, which also describes itself as Keras' loss object of the same function ({@code class_name}
     * and {@code get_config()}: name, reduction and its options), so a saved model can record it. {@code fn} is the
     * default mean; another reduction reduces the per-step values instead.
     */
    private record BuiltIn(String name, String kerasClassName, Map<String, Object> kerasConfig, boolean sparseTargets,
                           boolean fromLogits, LossFn perStepFn, LossFn fn, Reduction reduction)
            implements Loss, KerasObject {
        @Override
        public Node compute(Graph g, Node yTrue, Node yPred) {
            if (Reductions.isDefault(reduction, null)) {
                return fn.compute(g, yTrue, yPred);
            }
            return Reductions.reduce(g, perStepFn.compute(g, yTrue, yPred), null, null, reduction, name);
        }

        @Override
        public Node perStep(Graph g, Node yTrue, Node yPred) {
            return perStepFn.compute(g, yTrue, yPred);
        }

        @Override
        public Loss withReduction(Reduction r) {
            if (r == reduction) {
                return this;
            }
            Map<String, Object> config = new LinkedHashMap<>(kerasConfig);
            config.put("reduction", r.kerasName());
            return new BuiltIn(name, kerasClassName, Collections.unmodifiableMap(config), sparseTargets, fromLogits,
                    perStepFn, fn, r);
        }
    }

    /** Per-step values from per-element ones: the mean over the last axis (one value per sample for rank 1). */
    private static Node meanLast(Graph g, Node perElement) {
        if (perElement.shape().rank() <= 1) {
            return perElement;
        }
        return g.mean(perElement, false, -1);
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
