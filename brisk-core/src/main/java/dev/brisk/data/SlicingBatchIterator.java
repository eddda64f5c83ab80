package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** Batches in storage order as zero-copy views of consecutive rows. */
final class SlicingBatchIterator implements Iterator<Batch> {
    private final Tensor features;
    private final Tensor labels;
    private final int batchSize;
    private final int total;
    private int next;

    SlicingBatchIterator(Tensor features, Tensor labels, int batchSize) {
        this.features = features;
        this.labels = labels;
        this.batchSize = batchSize;
        this.total = features.shape().dim(0);
    }

    @Override
    public boolean hasNext() {
        return next < total;
    }

    @Override
    public Batch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("epoch finished after " + total + " samples");
        }
        int from = next;
        int to = (int) Math.min((long) from + batchSize, total);
        next = to;
        return new Batch(features.slice(from, to), labels.slice(from, to), to - from);
    }
}
