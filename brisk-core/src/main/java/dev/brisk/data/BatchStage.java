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
            private final Pools pools = new Pools();
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
                Batch b = stack(pending, batches++, pools);
                pending.clear();
                return b;
            }

            @Override
            public void recycle(Batch b) {
                pools.give(b);
            }

            @Override
            public void close() {
                pending.clear();
                pools.close();
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
     * The buffer pools of one pass: one per input, per target and for the weights, each of one size (a part's
     * stacked shape), made as the first batch needs them.
     */
    static final class Pools {
        private final List<BufferPool> inputs = new ArrayList<>();
        private final List<BufferPool> targets = new ArrayList<>();
        private final BufferPool weights = new BufferPool();

        BufferPool input(int i) {
            return pool(inputs, i);
        }

        BufferPool target(int i) {
            return pool(targets, i);
        }

        private static BufferPool pool(List<BufferPool> pools, int i) {
            while (pools.size() <= i) {
                pools.add(new BufferPool());
            }
            return pools.get(i);
        }

        /** Gives back every part of a batch this pass made (parts it did not make are ignored by the pools). */
        void give(Batch b) {
            for (int i = 0; i < b.inputs().length && i < inputs.size(); i++) {
                inputs.get(i).give(b.inputs()[i]);
            }
            for (int i = 0; i < b.targets().length && i < targets.size(); i++) {
                targets.get(i).give(b.targets()[i]);
            }
            weights.give(b.weights());
        }

        void close() {
            inputs.forEach(BufferPool::close);
            targets.forEach(BufferPool::close);
            weights.close();
        }
    }

    /**
     * Stacks samples along a new first axis into tensors from the pools, checking that they agree in the number,
     * names, shapes and types of their parts, and in having weights.
     */
    static Batch stack(List<Sample> samples, long batchIndex, Pools pools) {
        Sample first = samples.get(0);
        for (int i = 1; i < samples.size(); i++) {
            Sample s = samples.get(i);
            checkParts(true, first, s, i, batchIndex);
            if ((s.targetCount() == 0) != (first.targetCount() == 0)) {
                throw new IllegalArgumentException("element " + i + " of batch " + batchIndex
                        + (first.targetCount() > 0 ? " has no label but the first has one"
                        : " has a label but the first has none"));
            }
            checkParts(false, first, s, i, batchIndex);
            if ((s.weight() != null) != (first.weight() != null)) {
                throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + (first.weight() != null
                        ? " has no weight but the first has one" : " has a weight but the first has none"));
            }
        }
        Tensor[] inputs = new Tensor[first.inputCount()];
        for (int p = 0; p < inputs.length; p++) {
            inputs[p] = stackPart(samples, true, p, pools.input(p));
        }
        Tensor[] targets = new Tensor[first.targetCount()];
        for (int p = 0; p < targets.length; p++) {
            targets[p] = stackPart(samples, false, p, pools.target(p));
        }
        Tensor weights = null;
        if (first.weight() != null) {
            weights = pools.weights.take(dev.brisk.tensor.Shape.of(samples.size()));
            for (int i = 0; i < samples.size(); i++) {
                weights.set(i, samples.get(i).weight().get(0));
            }
        }
        return new Batch(inputs, targets, weights, samples.size(), first.inputNames(), first.targetNames());
    }

    /** Element {@code i} has as many inputs (or targets) as the first, with the same names, shapes and types. */
    private static void checkParts(boolean inputs, Sample first, Sample s, int i, long batchIndex) {
        String kind = inputs ? "input" : "target";
        int expected = inputs ? first.inputCount() : first.targetCount();
        int actual = inputs ? s.inputCount() : s.targetCount();
        List<String> expectedNames = inputs ? first.inputNames() : first.targetNames();
        List<String> actualNames = inputs ? s.inputNames() : s.targetNames();
        if (expected != actual || !java.util.Objects.equals(expectedNames, actualNames)) {
            throw new IllegalArgumentException("element " + i + " of batch " + batchIndex + " has " + actual
                    + " " + kind + "(s)" + (actualNames == null ? "" : " named " + actualNames) + " but the first has "
                    + expected + (expectedNames == null ? "" : " named " + expectedNames));
        }
        String what = inputs ? "features" : "a label";
        for (int p = 0; p < expected; p++) {
            check(expected == 1 ? what : kind + " " + p, part(first, inputs, p), part(s, inputs, p), i, batchIndex);
        }
    }

    private static Tensor part(Sample s, boolean input, int p) {
        return input ? s.input(p) : s.target(p);
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

    private static Tensor stackPart(List<Sample> samples, boolean input, int p, BufferPool buffers) {
        Tensor first = part(samples.get(0), input, p);
        Shape one = first.shape();
        int row = one.size();
        // Rows are copied as bits, so INT32 samples (token ids) stack exactly into an INT32 batch.
        Tensor stacked = buffers.take(one.prepend(samples.size()), first.dtype());
        float[] data = stacked.data();
        for (int i = 0; i < samples.size(); i++) {
            Tensor t = part(samples.get(i), input, p);
            System.arraycopy(t.data(), t.offset(), data, i * row, row);
        }
        return stacked;
    }
}
