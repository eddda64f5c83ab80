package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link Pipeline#paddedBatch}: stacks samples whose shapes differ (sequences of different lengths) into batches,
 * padding each sample with zeros at the end of every axis up to the batch's largest extent on that axis, or, for a
 * fixed {@code length}, the first axis up to that length. Zero is the padding token id
 * ({@code Vocabulary.PADDING}, what {@code Embedding(maskZero)} masks) and 0.0 for floats. Features and labels are
 * padded separately; a part of rank 0 (a class index) needs no padding. Batches of one size reuse their arrays once
 * given back, as {@link BatchStage}'s do.
 */
final class PaddedBatchStage extends Pipeline<Batch> {
    /** No fixed length: every axis to the batch's largest. */
    static final int LONGEST = -1;

    private final Pipeline<?> upstream;
    private final int size;
    private final int length;
    private final boolean dropRemainder;

    PaddedBatchStage(Pipeline<?> upstream, int size, int length, boolean dropRemainder) {
        this.upstream = upstream;
        this.size = size;
        this.length = length;
        this.dropRemainder = dropRemainder;
    }

    @Override
    public long cardinality() {
        long c = upstream.cardinality();
        if (c < 0) {
            return c;
        }
        return dropRemainder ? c / size : (c + size - 1) / size;
    }

    @Override
    Cursor<Batch> open(Autotuner tuner) {
        Cursor<?> in = upstream.open(tuner);
        return new Cursor<>() {
            private final List<Sample> pending = new ArrayList<>(size);
            private final BufferPool featureBuffers = new BufferPool();
            private final BufferPool labelBuffers = new BufferPool();
            private long batches;

            @Override
            public Batch next() {
                while (pending.size() < size) {
                    Object e = in.next();
                    if (e == null) {
                        break;
                    }
                    pending.add(BatchStage.asSample(e, "paddedBatch()", batches * size + pending.size()));
                }
                if (pending.isEmpty() || dropRemainder && pending.size() < size) {
                    pending.clear();
                    return null;
                }
                Batch b = stack(pending, batches++);
                pending.clear();
                return b;
            }

            private Batch stack(List<Sample> samples, long batchIndex) {
                Sample one = samples.get(0);
                if (one.inputCount() != 1 || one.targetCount() > 1 || one.weight() != null) {
                    throw new IllegalArgumentException("paddedBatch() pads samples of one input and at most one"
                            + " label, without weights; batch " + batchIndex + " starts with " + one.inputCount()
                            + " input(s), " + one.targetCount() + " target(s)"
                            + (one.weight() != null ? " and a weight" : "") + " (use batch())");
                }
                boolean labelled = samples.get(0).label() != null;
                for (int i = 1; i < samples.size(); i++) {
                    if ((samples.get(i).label() != null) != labelled) {
                        throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + (labelled
                                ? " has no label but the first has one" : " has a label but the first has none"));
                    }
                }
                Tensor features = pad(samples, true, batchIndex, featureBuffers);
                Tensor labels = labelled ? pad(samples, false, batchIndex, labelBuffers) : null;
                return new Batch(features, labels, samples.size());
            }

            @Override
            public void recycle(Batch b) {
                featureBuffers.give(b.features());
                labelBuffers.give(b.labels());
            }

            @Override
            public void close() {
                pending.clear();
                featureBuffers.close();
                labelBuffers.close();
                in.close();
            }
        };
    }

    /** One part (features or labels) of every sample, padded to the batch's shape and stacked. */
    private Tensor pad(List<Sample> samples, boolean features, long batchIndex, BufferPool buffers) {
        String what = features ? "features" : "a label";
        Tensor first = part(samples.get(0), features);
        int rank = first.shape().rank();
        int[] dims = first.shape().dims().clone();
        for (int i = 0; i < samples.size(); i++) {
            Tensor t = part(samples.get(i), features);
            if (t.dtype() != first.dtype()) {
                throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + " has " + what
                        + " of type " + t.dtype() + " but the first element's is " + first.dtype());
            }
            if (t.shape().rank() != rank) {
                throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + " has " + what
                        + " of shape " + t.shape() + " but the first element's is " + first.shape()
                        + "; paddedBatch() pads lengths, not ranks");
            }
            for (int a = 0; a < rank; a++) {
                dims[a] = Math.max(dims[a], t.shape().dim(a));
            }
        }
        if (length != LONGEST && rank > 0) {
            for (int i = 0; i < samples.size(); i++) {
                Shape s = part(samples.get(i), features).shape();
                if (s.dim(0) > length) {
                    throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + " has " + what
                            + " of shape " + s + ", longer than the padded length " + length);
                }
            }
            dims[0] = length;
        }
        Shape one = Shape.of(dims);
        Tensor stacked = buffers.take(one.prepend(samples.size()), first.dtype());
        float[] out = stacked.data();
        int row = one.size();
        // A reused array holds an earlier batch: the padding must be written, not assumed (0.0f is int 0's bits).
        Arrays.fill(out, stacked.offset(), stacked.offset() + row * samples.size(), 0f);
        for (int i = 0; i < samples.size(); i++) {
            copyPadded(part(samples.get(i), features), one, out, stacked.offset() + i * row);
        }
        return stacked;
    }

    private static Tensor part(Sample s, boolean features) {
        return features ? s.features() : s.label();
    }

    /** Copies {@code t} into the leading corner of a zeroed block of shape {@code padded} at {@code out[at]}. */
    private static void copyPadded(Tensor t, Shape padded, float[] out, int at) {
        int rank = t.shape().rank();
        if (rank == 0) {
            out[at] = t.data()[t.offset()];
            return;
        }
        int[] src = t.shape().dims();
        int[] dstStrides = padded.strides();
        int lastLength = src[rank - 1];
        int rows = t.size() / Math.max(lastLength, 1);
        if (lastLength == 0) {
            return;
        }
        int[] index = new int[rank - 1];
        for (int r = 0; r < rows; r++) {
            int dst = at;
            for (int a = 0; a < rank - 1; a++) {
                dst += index[a] * dstStrides[a];
            }
            // Bits copied as they are, so INT32 ids stay exact.
            System.arraycopy(t.data(), t.offset() + r * lastLength, out, dst, lastLength);
            for (int a = rank - 2; a >= 0; a--) {
                if (++index[a] < src[a]) {
                    break;
                }
                index[a] = 0;
            }
        }
    }
}
