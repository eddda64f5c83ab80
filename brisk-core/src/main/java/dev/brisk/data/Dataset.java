package dev.brisk.data;

import dev.brisk.tensor.Shape;

/**
 * A finite set of (features, label) samples that a training loop consumes in mini-batches.
 *
 * <p>Typical epoch loop:
 *
 * <pre>{@code
 * for (int epoch = 0; epoch < epochs; epoch++) {
 *     for (Batch b : dataset.batches(128, true, seed + epoch)) {
 *         step(b.features(), b.labels());   // b is valid until the next iteration
 *     }
 * }
 * }</pre>
 *
 * Implementations must let several iterators run at once (for example, training and validation threads), each
 * with its own buffers.
 */
public interface Dataset {

    /**
     * Number of samples.
     *
     * @return the sample count
     */
    int size();

    /**
     * Shape of one sample's features, without the batch axis (for example {@code (28, 28, 1)}).
     *
     * @return the per-sample feature shape
     */
    Shape featureShape();

    /**
     * Shape of one sample's label, without the batch axis: {@code ()} for class indexes.
     *
     * @return the per-sample label shape
     */
    Shape labelShape();

    /**
     * The samples in batches of {@code batchSize}; the last batch holds the remainder and may be smaller (it is
     * kept, as in Keras). With {@code shuffle}, each epoch visits every sample exactly once in an order fixed by
     * {@code seed}: the same seed gives the same order, and each call to {@code iterator()} on the returned
     * iterable restarts that same order. Without {@code shuffle}, samples come in storage order and {@code seed}
     * is ignored. A {@link Batch} is valid only until the iterator's next call to {@code next()}.
     *
     * @param batchSize samples per batch, at least 1
     * @param shuffle whether to shuffle the samples every epoch
     * @param seed the shuffling seed
     * @return the batches of one epoch; each iteration is one epoch
     * @throws IllegalArgumentException if {@code batchSize} is not positive
     */
    Iterable<Batch> batches(int batchSize, boolean shuffle, long seed);

    /**
     * As {@link #batches(int, boolean, long)}, but a dataset that gathers each batch's rows may gather the
     * features straight into the tensor {@code into} names for it (the batch's features are then a view of that
     * tensor); the others ignore {@code into}.
     *
     * @param batchSize samples per batch, at least 1
     * @param shuffle whether to shuffle the samples every epoch
     * @param seed the shuffling seed
     * @param into names the tensor to gather each batch's features into
     * @return the batches of one epoch
     */
    default Iterable<Batch> batches(int batchSize, boolean shuffle, long seed, FeatureDestination into) {
        return batches(batchSize, shuffle, seed);
    }

    /**
     * Number of batches per epoch for {@code batchSize}: {@code ceil(size() / batchSize)}.
     *
     * @param batchSize samples per batch, at least 1
     * @return the number of batches
     */
    default int batchCount(int batchSize) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batch size must be positive, got " + batchSize);
        }
        return (int) (((long) size() + batchSize - 1) / batchSize);
    }
}
