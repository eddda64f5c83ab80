package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Batches in a given sample order, gathered row by row into two buffers that this iterator allocates once and
 * reuses for every batch (so a batch is valid only until the next call to {@link #next()}).
 */
final class GatheringBatchIterator implements Iterator<Batch> {
    private final Tensor features;
    private final Tensor labels;
    private final int[] order;
    private final int batchSize;
    private final int featureRow;
    private final int labelRow;
    private float[] featureBuffer;
    private float[] labelBuffer;
    private int next;

    GatheringBatchIterator(Tensor features, Tensor labels, int batchSize, int[] order) {
        this.features = features;
        this.labels = labels;
        this.order = order;
        this.batchSize = batchSize;
        this.featureRow = features.shape().dropFirst().size();
        this.labelRow = labels.shape().dropFirst().size();
    }

    @Override
    public boolean hasNext() {
        return next < order.length;
    }

    @Override
    public Batch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("epoch finished after " + order.length + " samples");
        }
        int from = next;
        int n = (int) Math.min((long) batchSize, order.length - from);
        next = from + n;
        if (featureBuffer == null) {
            int rows = Math.min(batchSize, order.length);
            featureBuffer = new float[Math.multiplyExact(rows, featureRow)];
            labelBuffer = new float[Math.multiplyExact(rows, labelRow)];
        }
        gather(features, featureRow, featureBuffer, from, n);
        gather(labels, labelRow, labelBuffer, from, n);
        Shape fShape = features.shape().withDim(0, n);
        Shape lShape = labels.shape().withDim(0, n);
        return new Batch(Tensor.wrap(featureBuffer, 0, fShape), Tensor.wrap(labelBuffer, 0, lShape), n);
    }

    private void gather(Tensor src, int row, float[] dst, int from, int n) {
        float[] data = src.data();
        int base = src.offset();
        for (int i = 0; i < n; i++) {
            System.arraycopy(data, base + order[from + i] * row, dst, i * row, row);
        }
    }
}
