package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@link Pipeline#batch}: stacks samples (or tensors) into batches that own their storage. Full batches are stacked
 * into arrays from a per-pass {@link BufferPool}, so that batches given back ({@link Cursor#recycle}) are reused.
 */
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

    /**
     * A map of the features by an {@link ElementwiseTransform} ({@code Batch.features(Rescaling...)}) runs in
     * place: a batch this stage has just stacked is seen by no one but the map, so overwriting it is invisible, and
     * the mapped batch keeps storage that this stage can reuse once it is given back.
     */
    @Override
    public <R> Pipeline<R> map(Function<? super Batch, ? extends R> fn, int parallelism) {
        ElementwiseTransform t = fn instanceof BatchFeatureMap m ? m.elementwise() : null;
        if (t == null) {
            return super.map(fn, parallelism);
        }
        Mapper<Batch, Batch> transformInPlace = (b, pass, index) -> {
            t.applyInPlace(b.features());
            return b;
        };
        @SuppressWarnings("unchecked") // fn gives Batches, so R is Batch or a supertype of it
        Pipeline<R> mapped = (Pipeline<R>) new MapStage<>(this, transformInPlace, checkParallelism(parallelism),
                true);
        return mapped;
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
                    Object e = in.next(); // a bad record leaves what was collected for the next call
                    if (e == null) {
                        break;
                    }
                    pending.add(asSample(e, "batch()", batches * size + pending.size()));
                }
                if (pending.isEmpty() || dropRemainder && pending.size() < size) {
                    pending.clear();
                    return null;
                }
                Batch b = stack(pending, batches++, featureBuffers, labelBuffers);
                pending.clear();
                return b;
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

    /**
     * A pipeline element as a Sample (a bare Tensor is an unlabelled one), for the stages that stack elements.
     *
     * @param stage the stage's name in the error, e.g. {@code batch()}
     * @param position the element's position in the stream, for the error
     * @throws IllegalArgumentException naming the stage, the position and the element's class otherwise
     */
    static Sample asSample(Object e, String stage, long position) {
        if (e instanceof Sample s) {
            return s;
        }
        if (e instanceof Tensor t) {
            return new Sample(t);
        }
        throw new IllegalArgumentException(stage + " stacks Samples or Tensors, but element " + position + " is a "
                + e.getClass().getName() + "; map the elements to Samples first");
    }

    /**
     * Stacks samples along a new first axis into tensors from the pools, checking that they agree in shape and in
     * having labels.
     */
    static Batch stack(List<Sample> samples, long batchIndex, BufferPool featureBuffers, BufferPool labelBuffers) {
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
        Tensor features = stackPart(samples, true, featureBuffers);
        Tensor labels = labelled ? stackPart(samples, false, labelBuffers) : null;
        return new Batch(features, labels, samples.size());
    }

    private static void check(String what, Tensor expected, Tensor actual, int i, long batchIndex) {
        if (expected.dtype() != actual.dtype()) {
            throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + " has " + what
                    + " of type " + actual.dtype() + " but the first element's is " + expected.dtype());
        }
        if (!expected.shape().equals(actual.shape())) {
            throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + " has " + what
                    + " of shape " + actual.shape() + " but the first element's is " + expected.shape()
                    + "; batch() needs elements of one shape (resize or crop them first)");
        }
    }

    private static Tensor stackPart(List<Sample> samples, boolean features, BufferPool buffers) {
        Tensor first = features ? samples.get(0).features() : samples.get(0).label();
        Shape one = first.shape();
        int row = one.size();
        // Rows are copied as bits, so INT32 samples (token ids) stack exactly into an INT32 batch.
        Tensor stacked = buffers.take(one.prepend(samples.size()), first.dtype());
        float[] data = stacked.data();
        for (int i = 0; i < samples.size(); i++) {
            Tensor t = features ? samples.get(i).features() : samples.get(i).label();
            System.arraycopy(t.data(), t.offset(), data, i * row, row);
        }
        return stacked;
    }
}
