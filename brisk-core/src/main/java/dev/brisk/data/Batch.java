package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.Objects;
import java.util.function.Function;

/**
 * One mini-batch: {@code size} samples stacked along axis 0 of {@code features} and {@code labels}.
 *
 * <p>Lifetime: a batch handed out by a {@link Dataset#batches} iterator is valid only until that iterator's next
 * call to {@code next()}, because implementations may reuse its buffers or view the dataset's storage. Treat it as
 * read-only, and call {@link #copy()} to keep it longer. Batches made by {@link Pipeline#batch} own their storage
 * and keep it unless given back with {@link PipelineIterator#recycle} ({@code Model.fit}, {@code evaluate} and
 * {@code predict} give back each batch once its step is done with it); then a later batch may be stacked into it.
 *
 * @param features shape {@code [size, ...featureShape]}
 * @param labels shape {@code [size, ...labelShape]}, or null for features only (data to predict on)
 * @param size the number of samples; the last batch of an epoch may be smaller than the requested batch size
 */
public record Batch(Tensor features, Tensor labels, int size) {

    /** Checks that both tensors hold {@code size} samples along axis 0. */
    public Batch {
        if (features.shape().rank() == 0 || features.shape().dim(0) != size
                || labels != null && (labels.shape().rank() == 0 || labels.shape().dim(0) != size)) {
            throw new IllegalArgumentException("batch of " + size + " samples has features of shape "
                    + features.shape() + " and labels of shape " + (labels == null ? "(none)" : labels.shape()));
        }
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
        return new Batch(features.copy(), labels == null ? null : labels.copy(), size);
    }
}
