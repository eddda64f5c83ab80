package dev.brisk.data;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;

/**
 * A dataset held in two tensors: features {@code [N, ...]} and labels {@code [N, ...]}, sample {@code i} being row
 * {@code i} of each. Images read from a file of unsigned bytes ({@link IdxDatasets}) keep their bytes, a quarter of
 * the memory, and are divided into floats as batches are gathered; {@link #features()} makes the float tensor on
 * first use.
 *
 * <p>Immutable and thread-safe: it views the given tensors without copying (callers must not modify them
 * afterwards), views derived with {@link #slice}, {@link #take} or {@link #reshapeFeatures} share that storage
 * (for features kept as bytes: the bytes; each view's {@link #features()} is then a float copy of its own), and
 * every batch iterator owns its own buffers.
 */
public final class InMemoryDataset implements Dataset {
    /** The features as floats, or null when they are kept as {@link #pixels}. */
    private final Tensor features;
    /** The features as unsigned bytes, or null when they are the float tensor {@link #features}. */
    private final BytePixels pixels;
    private final Tensor labels;

    /**
     * A dataset over {@code features} and {@code labels}, which must agree on the number of samples (axis 0).
     *
     * @param features the features, sample axis first
     * @param labels the labels, sample axis first
     * @throws IllegalArgumentException naming both shapes when they disagree or either is rank 0
     */
    public InMemoryDataset(Tensor features, Tensor labels) {
        this(features, null, labels);
    }

    /** A dataset whose features are unsigned bytes, divided as they are read (see {@link BytePixels}). */
    InMemoryDataset(BytePixels pixels, Tensor labels) {
        this(null, pixels, labels);
    }

    private InMemoryDataset(Tensor features, BytePixels pixels, Tensor labels) {
        Shape f = features != null ? features.shape() : pixels.shape();
        Shape l = labels.shape();
        if (f.rank() == 0 || l.rank() == 0) {
            throw new IllegalArgumentException("features " + f + " and labels " + l
                    + " must both have a leading sample axis");
        }
        if (f.dim(0) != l.dim(0)) {
            throw new IllegalArgumentException("features of shape " + f + " and labels of shape " + l
                    + " disagree on the number of samples: " + f.dim(0) + " vs " + l.dim(0));
        }
        this.features = features;
        this.pixels = pixels;
        this.labels = labels;
    }

    /**
     * All features, shape {@code [N, ...featureShape]}; a view of the dataset's storage, do not modify. For
     * features kept as bytes the float tensor is made on the first call and kept beside the bytes (4 more bytes a
     * value from then on); training, evaluation and {@link Pipeline#from(InMemoryDataset)} never call it.
     *
     * @return the features
     */
    public Tensor features() {
        return features != null ? features : pixels.toTensor();
    }

    /** The features as unsigned bytes, or null when they are floats. */
    BytePixels pixels() {
        return pixels;
    }

    private Shape featuresShape() {
        return features != null ? features.shape() : pixels.shape();
    }

    /**
     * All labels, shape {@code [N, ...labelShape]}; a view of the dataset's storage, do not modify.
     *
     * @return the labels
     */
    public Tensor labels() {
        return labels;
    }

    @Override
    public int size() {
        return featuresShape().dim(0);
    }

    @Override
    public Shape featureShape() {
        return featuresShape().dropFirst();
    }

    @Override
    public Shape labelShape() {
        return labels.shape().dropFirst();
    }

    @Override
    public Iterable<Batch> batches(int batchSize, boolean shuffle, long seed) {
        return batches(batchSize, shuffle, seed, null);
    }

    @Override
    public Iterable<Batch> batches(int batchSize, boolean shuffle, long seed, FeatureDestination into) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batch size must be positive, got " + batchSize);
        }
        if (pixels != null) {
            return () -> new GatheringBatchIterator(pixels, labels, batchSize,
                    shuffle ? Permutations.shuffled(size(), seed) : Permutations.identity(size()), into);
        }
        return () -> shuffle
                ? new GatheringBatchIterator(features, labels, batchSize, Permutations.shuffled(size(), seed), into)
                : new SlicingBatchIterator(features, labels, batchSize);
    }

    /**
     * Samples {@code [from, to)} as a dataset sharing this one's storage.
     *
     * @param from first sample, inclusive
     * @param to last sample, exclusive
     * @return the slice
     */
    public InMemoryDataset slice(int from, int to) {
        if (from < 0 || to < from || to > size()) {
            throw new IllegalArgumentException("slice [" + from + ", " + to + ") is outside a dataset of " + size()
                    + " samples");
        }
        return pixels != null ? new InMemoryDataset(pixels.slice(from, to), labels.slice(from, to))
                : new InMemoryDataset(features.slice(from, to), labels.slice(from, to));
    }

    /**
     * The first {@code n} samples, sharing this dataset's storage.
     *
     * @param n the number of samples
     * @return the first {@code n} samples
     */
    public InMemoryDataset take(int n) {
        return slice(0, n);
    }

    /**
     * The same samples with each feature row viewed as {@code perSample} (same element count), sharing storage;
     * for example {@code (28, 28, 1)} to {@code (784,)} for a dense network.
     *
     * @param perSample the new per-sample feature shape
     * @return the reshaped dataset
     */
    public InMemoryDataset reshapeFeatures(Shape perSample) {
        if (perSample.size() != featureShape().size()) {
            throw new IllegalArgumentException("cannot view features of shape " + featureShape() + " per sample as "
                    + perSample + ": " + featureShape().size() + " vs " + perSample.size() + " elements");
        }
        Shape all = perSample.prepend(size());
        return pixels != null ? new InMemoryDataset(pixels.reshape(all), labels)
                : new InMemoryDataset(features.reshape(all), labels);
    }

    /**
     * The same samples with every feature divided by {@code divisor} ({@code x / divisor}, as
     * {@code Rescaling.divideBy} computes it). Features kept as the file's bytes, not yet divided, stay bytes: the
     * result is a view that divides as it reads, with the same bits and no float copy; other features are copied.
     *
     * @param divisor the divisor, finite and not 0
     * @return the divided dataset
     * @throws IllegalArgumentException for a divisor that is 0 or not finite, or INT32 features (token ids)
     */
    public InMemoryDataset dividedBy(float divisor) {
        if (divisor == 0 || !Float.isFinite(divisor)) {
            throw new IllegalArgumentException("cannot divide features by " + divisor);
        }
        if (features != null && features.dtype() == DType.INT32) {
            throw new IllegalArgumentException("cannot divide INT32 features (token ids) by " + divisor
                    + "; ids feed an Embedding as they are");
        }
        BytePixels view = pixels == null ? null : pixels.dividedBy(divisor);
        if (view != null) {
            return new InMemoryDataset(view, labels);
        }
        Shape shape = featuresShape();
        float[] out = new float[shape.size()];
        if (pixels != null) { // decoded here, not through features(), which would keep a float copy beside the bytes
            for (int row = 0, at = 0; row < size(); row++, at += pixels.rowSize()) {
                pixels.copyRow(row, out, at);
            }
        } else {
            System.arraycopy(features.data(), features.offset(), out, 0, out.length);
        }
        for (int i = 0; i < out.length; i++) {
            out[i] /= divisor;
        }
        return new InMemoryDataset(Tensor.wrap(out, 0, shape), labels);
    }

    /**
     * The features flattened to one axis per sample, {@code [N, prod(featureShape)]}, sharing storage.
     *
     * @return the flattened dataset
     */
    public InMemoryDataset flatten() {
        return reshapeFeatures(Shape.of(featureShape().size()));
    }

    /**
     * For class-index labels (label shape {@code ()}): the largest label plus one, or 0 for an empty dataset.
     *
     * @return the number of classes
     * @throws IllegalArgumentException if a label is negative or not an integer, naming it and its index
     */
    public int numClasses() {
        requireScalarLabels();
        int max = -1;
        for (int i = 0; i < size(); i++) {
            max = Math.max(max, classIndex(i, Integer.MAX_VALUE));
        }
        return max + 1;
    }

    /**
     * Checks that every label is an integer class index in {@code [0, numClasses)}.
     *
     * @param numClasses the number of classes
     * @throws IllegalArgumentException for the first offending label, for example
     *     {@code "label 10 at index 5 is outside [0, 10)"}
     */
    public void checkClassLabels(int numClasses) {
        requireScalarLabels();
        for (int i = 0; i < size(); i++) {
            classIndex(i, numClasses);
        }
    }

    /** Label {@code i} as a class index below {@code numClasses} ({@link Integer#MAX_VALUE}: no upper bound). */
    private int classIndex(int i, int numClasses) {
        float v = labels.get(i);
        if (v != Math.rint(v)) {
            throw new IllegalArgumentException("label " + v + " at index " + i + " is not an integer class index");
        }
        if (v < 0 && numClasses == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("label " + formatLabel(v) + " at index " + i
                    + " is negative; class indexes start at 0");
        }
        if (v < 0 || v >= numClasses) {
            throw new IllegalArgumentException("label " + formatLabel(v) + " at index " + i + " is outside [0, "
                    + numClasses + ")");
        }
        return (int) v;
    }

    private static String formatLabel(float v) {
        return Math.abs(v) < 1e9f ? Long.toString((long) v) : Float.toString(v);
    }

    private void requireScalarLabels() {
        if (labels.shape().rank() != 1) {
            throw new IllegalArgumentException("class-index labels must have shape (N,), got " + labels.shape());
        }
    }

    @Override
    public String toString() {
        return "InMemoryDataset[" + size() + " samples, features " + featureShape() + ", labels " + labelShape()
                + "]";
    }
}
