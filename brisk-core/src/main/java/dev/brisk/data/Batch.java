package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One mini-batch: {@code size} samples stacked along axis 0 of every input, target and the weights.
 *
 * <p>Lifetime: a batch handed out by a {@link Dataset#batches} iterator is valid only until that iterator's next
 * call to {@code next()}, because implementations may reuse its buffers or view the dataset's storage. Treat it as
 * read-only, and call {@link #copy()} to keep it longer. Batches made by {@link Pipeline#batch} own their storage
 * and keep it unless given back with {@link PipelineIterator#recycle} ({@code Model.fit}, {@code evaluate} and
 * {@code predict} give back each batch once its step is done with it); then a later batch may be stacked into it.
 *
 * @param inputs one tensor per model input, each of shape {@code [size, ...inputShape]}
 * @param targets one tensor per model output, each {@code [size, ...targetShape]}; empty for features only
 * @param weights the samples' weights in the loss, shape {@code [size]} (Keras' {@code sample_weight}), or null
 * @param size the number of samples; the last batch of an epoch may be smaller than the requested batch size
 * @param inputNames the model input each input is for (see {@link Sample#of(java.util.Map, java.util.Map)}), or
 *     null for inputs by position
 * @param targetNames the model output each target is for, or null for targets by position
 */
public record Batch(Tensor[] inputs, Tensor[] targets, Tensor weights, int size, List<String> inputNames,
                    List<String> targetNames) {

    /** Checks that every part holds {@code size} samples along axis 0 and that the names fit. */
    public Batch {
        Objects.requireNonNull(inputs, "a batch needs features");
        targets = targets == null ? new Tensor[0] : targets;
        Parts.check("batch", inputs, targets, inputNames, targetNames);
        for (Tensor t : inputs) {
            checkRows(t, size, inputs, targets);
        }
        for (Tensor t : targets) {
            checkRows(t, size, inputs, targets);
        }
        if (weights != null && weights.size() != size) {
            throw new IllegalArgumentException("batch of " + size + " samples has weights of shape "
                    + weights.shape());
        }
    }

    /**
     * A batch with one input and one target.
     *
     * @param features shape {@code [size, ...featureShape]}
     * @param labels shape {@code [size, ...labelShape]}, or null for features only (data to predict on)
     * @param size the number of samples
     */
    public Batch(Tensor features, Tensor labels, int size) {
        this(new Tensor[] {Objects.requireNonNull(features, "a batch needs features")},
                labels == null ? new Tensor[0] : new Tensor[] {labels}, null, size, null, null);
    }

    private static void checkRows(Tensor t, int size, Tensor[] inputs, Tensor[] targets) {
        if (t.shape().rank() == 0 || t.shape().dim(0) != size) {
            throw new IllegalArgumentException("batch of " + size + " samples has features of shape "
                    + shapes(inputs) + " and labels of shape " + (targets.length == 0 ? "(none)" : shapes(targets)));
        }
    }

    private static String shapes(Tensor[] parts) {
        if (parts.length == 1) {
            return parts[0].shape().toString();
        }
        StringBuilder b = new StringBuilder("[");
        for (Tensor t : parts) {
            b.append(b.length() > 1 ? ", " : "").append(t.shape());
        }
        return b.append(']').toString();
    }

    /**
     * The features of a single-input batch.
     *
     * @return the one input
     * @throws IllegalStateException if the batch has several inputs (use {@link #inputs()})
     */
    public Tensor features() {
        return Parts.single(inputs, "input", "features()");
    }

    /**
     * The labels of a single-output batch, or null for features only.
     *
     * @return the one target, or null
     * @throws IllegalStateException if the batch has several targets (use {@link #targets()})
     */
    public Tensor labels() {
        return targets.length == 0 ? null : Parts.single(targets, "target", "labels()");
    }

    /**
     * This batch with other inputs, the rest kept.
     *
     * @param newInputs the inputs
     * @return a new batch
     */
    Batch withInputs(Tensor[] newInputs) {
        return new Batch(newInputs, targets, weights, size, inputNames, targetNames);
    }

    /**
     * Lifts a function of tensors to batches: applies {@code fn} to the features and keeps the labels; for
     * vectorised preprocessing after {@link Pipeline#batch} (one call per batch instead of per sample). Mapped
     * right after {@code batch}, an {@link ElementwiseTransform} (such as {@code Rescaling}) runs in place on the
     * freshly stacked batch.
     *
     * @param fn the function of the features tensor, batch axis first
     * @return the function of batches
     */
    public static Function<Batch, Batch> features(Function<? super Tensor, ? extends Tensor> fn) {
        return new BatchFeatureMap(Objects.requireNonNull(fn, "feature function"));
    }

    /**
     * A copy that owns its storage and stays valid after the iterator moves on.
     *
     * @return the copy
     */
    public Batch copy() {
        Tensor[] in = new Tensor[inputs.length];
        for (int i = 0; i < in.length; i++) {
            in[i] = inputs[i].copy();
        }
        Tensor[] out = new Tensor[targets.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = targets[i].copy();
        }
        return new Batch(in, out, weights == null ? null : weights.copy(), size, inputNames, targetNames);
    }
}
