package dev.brisk.data;

import dev.brisk.tensor.Tensor;

/**
 * Where a batch iterator that gathers rows may put a batch's features instead of its own buffer: the buffer the
 * consumer would otherwise copy them into (a compiled training step's input), so that they are written once.
 */
@FunctionalInterface
public interface FeatureDestination {
    /**
     * The tensor to fill with the next batch's {@code rows} rows of features, or null for the iterator's own
     * buffer. A tensor of another size than {@code rows} rows is not used.
     *
     * @param rows the number of rows of the next batch
     * @return the tensor to fill, or null
     */
    Tensor featuresFor(int rows);
}
