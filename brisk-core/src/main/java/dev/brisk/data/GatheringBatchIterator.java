package dev.brisk.data;

import dev.brisk.parallel.Parallel;
import dev.brisk.parallel.RangeBody;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Batches in a given sample order, gathered row by row into two buffers that this iterator allocates once and
 * reuses for every batch (so a batch is valid only until the next call to {@link #next()}). A large batch's
 * feature rows are copied on the compute pool: between two training steps its threads are idle, and the rows
 * come from random places in a large array, so the copy waits on memory.
 * Features kept as bytes ({@link BytePixels}) are divided into floats as their rows are copied. Given a
 * {@link FeatureDestination}, the feature rows go straight into the tensor it names (a compiled step's input), which
 * saves the consumer a copy of the whole batch: at two threads that copy read rows the other core had just written.
 */
final class GatheringBatchIterator implements Iterator<Batch> {
    /** Feature rows per chunk of a split gather; a batch of fewer floats than {@link #SPLIT_MIN_FLOATS} is not split. */
    private static final int ROWS_PER_CHUNK = 16;
    private static final int SPLIT_MIN_FLOATS = 1 << 15;
    private static final int FLOATS_PER_CACHE_LINE = 16;

    /** The features, or null when they are {@link #pixels}. */
    private final Tensor features;
    private final BytePixels pixels;
    private final Shape featuresShape;
    private final Tensor labels;
    private final int[] order;
    private final FeatureDestination into;
    private final int batchSize;
    private final int featureRow;
    private final int labelRow;
    private float[] featureBuffer;
    private float[] labelBuffer;
    /** Where the current batch's feature rows go: {@link #featureBuffer} or the destination's storage. */
    private float[] target;
    private int targetOffset;
    private int next;
    /** The batch's first position in {@code order}, for {@link #featureRows}. */
    private int batchStart;
    /** The last sum {@link #touch} read (its only use: a store the JIT must keep). */
    private int touched;
    /** Copies feature rows {@code [from, to)} of the current batch (made once: a region allocates nothing). */
    private final RangeBody featureRows;

    /** Batches of {@code features} rows; {@code into} may be null (every batch in this iterator's buffer). */
    GatheringBatchIterator(Tensor features, Tensor labels, int batchSize, int[] order, FeatureDestination into) {
        this(features, null, features.shape(), labels, batchSize, order, into);
    }

    /** Batches of byte rows divided into floats; {@code into} may be null. */
    GatheringBatchIterator(BytePixels pixels, Tensor labels, int batchSize, int[] order, FeatureDestination into) {
        this(null, pixels, pixels.shape(), labels, batchSize, order, into);
    }

    private GatheringBatchIterator(Tensor features, BytePixels pixels, Shape featuresShape, Tensor labels,
                                   int batchSize, int[] order, FeatureDestination into) {
        this.features = features;
        this.pixels = pixels;
        this.featuresShape = featuresShape;
        this.labels = labels;
        this.order = order;
        this.into = into;
        this.batchSize = batchSize;
        this.featureRow = featuresShape.dropFirst().size();
        this.labelRow = labels.shape().dropFirst().size();
        this.featureRows = (first, end) -> gatherFeatures(batchStart + first, first, end - first);
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
        if (labelBuffer == null) {
            labelBuffer = new float[Math.multiplyExact(Math.min(batchSize, order.length), labelRow)];
        }
        Shape fShape = featuresShape.withDim(0, n);
        Tensor destination = into == null ? null : into.featuresFor(n);
        if (destination != null && destination.size() == fShape.size()) {
            target = destination.data();
            targetOffset = destination.offset();
        } else {
            if (featureBuffer == null) {
                featureBuffer = new float[Math.multiplyExact(Math.min(batchSize, order.length), featureRow)];
            }
            target = featureBuffer;
            targetOffset = 0;
        }
        if ((long) n * featureRow >= SPLIT_MIN_FLOATS) {
            batchStart = from;
            Parallel.forRange(n, ROWS_PER_CHUNK, featureRows);
        } else {
            gatherFeatures(from, 0, n);
        }
        gather(labels, labelRow, labelBuffer, 0, from, 0, n);
        Shape lShape = labels.shape().withDim(0, n);
        // Rows are copied as bits, so INT32 features (token ids) stay exact and keep their dtype.
        DType dtype = features == null ? DType.FLOAT32 : features.dtype();
        return new Batch(Tensor.wrap(target, targetOffset, fShape, dtype), Tensor.wrap(labelBuffer, 0, lShape), n);
    }

    private void gatherFeatures(int from, int to, int n) {
        touch(from, n);
        if (pixels == null) {
            gather(features, featureRow, target, targetOffset, from, to, n);
            return;
        }
        for (int i = 0; i < n; i++) {
            pixels.copyRow(order[from + i], target, targetOffset + (to + i) * featureRow);
        }
    }

    /**
     * Reads one value of every cache line of the feature rows of samples {@code order[from..from+n)} before they
     * are copied. These loads do not depend on each other, so the core keeps many of the rows' cache misses in
     * flight at once; the copy alone waits for a row or two at a time (docs/benchmark-log.md, "The batch gather
     * touches its rows first").
     */
    private void touch(int from, int n) {
        int sum = 0;
        if (pixels != null) {
            for (int i = 0; i < n; i++) {
                sum += pixels.touchRow(order[from + i]);
            }
        } else {
            float[] data = features.data();
            int base = features.offset();
            for (int i = 0; i < n; i++) {
                int start = base + order[from + i] * featureRow;
                for (int k = 0; k < featureRow; k += FLOATS_PER_CACHE_LINE) {
                    sum += (int) data[start + k];
                }
            }
        }
        touched = sum; // kept, so that the JIT cannot drop the loads
    }

    /**
     * Copies the rows of samples {@code order[from..from+n)} to rows {@code [to, to+n)} of {@code dst}, whose row
     * 0 starts at {@code dstOff}.
     */
    private void gather(Tensor src, int row, float[] dst, int dstOff, int from, int to, int n) {
        float[] data = src.data();
        int base = src.offset();
        for (int i = 0; i < n; i++) {
            System.arraycopy(data, base + order[from + i] * row, dst, dstOff + (to + i) * row, row);
        }
    }
}
