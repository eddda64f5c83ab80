package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/** {@link Pipeline#batch}: stacks samples (or tensors) into batches that own their storage. */
final class BatchStage extends Pipeline<Batch> {
    private final Pipeline<?> upstream;
    private final int size;
    private final boolean dropRemainder;

    BatchStage(Pipeline<?> upstream, int size, boolean dropRemainder) {
        this.upstream = upstream;
        this.size = size;
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
            private long batches;

            @Override
            public Batch next() {
                while (pending.size() < size) {
                    Object e = in.next(); // a bad record leaves what was collected for the next call
                    if (e == null) {
                        break;
                    }
                    pending.add(asSample(e, batches * size + pending.size()));
                }
                if (pending.isEmpty() || dropRemainder && pending.size() < size) {
                    pending.clear();
                    return null;
                }
                Batch b = stack(pending, batches++);
                pending.clear();
                return b;
            }

            @Override
            public void close() {
                pending.clear();
                in.close();
            }
        };
    }

    private static Sample asSample(Object e, long position) {
        if (e instanceof Sample s) {
            return s;
        }
        if (e instanceof Tensor t) {
            return new Sample(t);
        }
        throw new IllegalArgumentException("batch() stacks Samples or Tensors, but element " + position + " is a "
                + e.getClass().getName() + "; map the elements to Samples first");
    }

    /** Stacks samples along a new first axis, checking that they agree in shape and in having labels. */
    static Batch stack(List<Sample> samples, long batchIndex) {
        Sample first = samples.get(0);
        boolean labelled = first.label() != null;
        for (int i = 1; i < samples.size(); i++) {
            Sample s = samples.get(i);
            check("features", first.features(), s.features(), i, batchIndex);
            if ((s.label() != null) != labelled) {
                throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + (labelled
                        ? " has no label but the first has one" : " has a label but the first has none"));
            }
            if (labelled) {
                check("a label", first.label(), s.label(), i, batchIndex);
            }
        }
        Tensor features = stackPart(samples, true);
        Tensor labels = labelled ? stackPart(samples, false) : null;
        return new Batch(features, labels, samples.size());
    }

    private static void check(String what, Tensor expected, Tensor actual, int i, long batchIndex) {
        if (!expected.shape().equals(actual.shape())) {
            throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + " has " + what
                    + " of shape " + actual.shape() + " but the first element's is " + expected.shape()
                    + "; batch() needs elements of one shape (resize or crop them first)");
        }
    }

    private static Tensor stackPart(List<Sample> samples, boolean features) {
        Shape one = (features ? samples.get(0).features() : samples.get(0).label()).shape();
        int row = one.size();
        float[] data = new float[Math.multiplyExact(row, samples.size())];
        for (int i = 0; i < samples.size(); i++) {
            Tensor t = features ? samples.get(i).features() : samples.get(i).label();
            System.arraycopy(t.data(), t.offset(), data, i * row, row);
        }
        return Tensor.wrap(data, 0, one.prepend(samples.size()));
    }
}
