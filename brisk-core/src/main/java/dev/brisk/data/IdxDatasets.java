package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;

/** Builds datasets from a pair of IDX files, one of samples and one of labels, as MNIST-style datasets ship. */
public final class IdxDatasets {
    private IdxDatasets() {
    }

    /**
     * Reads {@code samplesFile} ({@code [N, ...]}) and {@code labelsFile} ({@code [N, ...]}) into a dataset, with
     * every feature value divided by {@code featureDivisor} (for example {@code 255f} to scale pixels to [0, 1];
     * {@code 1f} keeps the stored values).
     *
     * @param samplesFile the IDX file of the features
     * @param labelsFile the IDX file of the labels
     * @param featureDivisor what each feature value is divided by
     * @return the dataset
     * @throws IdxFormatException if either file is malformed, or if the files disagree on N; the message then
     *     reads like {@code "60000 images but 59999 labels in <samples> and <labels>"}
     */
    public static InMemoryDataset load(Path samplesFile, Path labelsFile, float featureDivisor) throws IOException {
        return load(samplesFile, labelsFile, featureDivisor, null);
    }

    /**
     * As {@link #load(Path, Path, float)}, reading gzip-compressed files through {@code cache} when not null.
     *
     * @param samplesFile the IDX file of the features
     * @param labelsFile the IDX file of the labels
     * @param featureDivisor what each feature value is divided by
     * @param cache where unpacked copies of compressed files live, or null
     * @return the dataset
     * @throws IOException if a file cannot be read or is malformed (the message names it)
     */
    public static InMemoryDataset load(Path samplesFile, Path labelsFile, float featureDivisor, UnpackedCache cache)
            throws IOException {
        // Unsigned-byte samples (images) stay bytes, divided as batches are made (BytePixels).
        IdxReader.Contents samples = cache == null ? IdxReader.readContents(samplesFile, featureDivisor, null, true)
                : cache.readContents(samplesFile, featureDivisor, true);
        IdxArray labels = cache == null ? IdxReader.read(labelsFile) : cache.read(labelsFile, 1f);
        Shape shape = samples.shape();
        int count = shape.rank() == 0 ? 1 : shape.dim(0);
        if (shape.rank() == 0 || labels.shape().rank() == 0 || count != labels.count()) {
            throw new IdxFormatException(labelsFile, count + " images but " + labels.count()
                    + " labels in " + samplesFile + " " + shape + " and " + labelsFile + " "
                    + labels.shape());
        }
        if (samples.bytes() != null) {
            return new InMemoryDataset(new BytePixels(samples.bytes(), 0, shape, featureDivisor), labels.toTensor());
        }
        return new InMemoryDataset(Tensor.wrap(samples.values(), 0, shape), labels.toTensor());
    }
}
