package dev.brisk.nn;

import dev.brisk.data.Batch;
import dev.brisk.data.Dataset;
import dev.brisk.data.FeatureDestination;
import dev.brisk.data.Permutations;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** Where the training loop gets its batches: a {@link Dataset}, or arrays for multi-input models. */
interface BatchSource {
    int size();

    /** Per-sample shapes of the inputs. */
    Shape[] inputShapes();

    /** The targets, whole, for up-front checks (null when not available). */
    Tensor[] allTargets();

    Iterable<StepBatch> batches(int batchSize, boolean shuffle, long seed);

    /**
     * As {@link #batches(int, boolean, long)}; a source that gathers rows may put a single input's rows into the
     * tensor {@code into} names (see {@link Dataset#batches(int, boolean, long, FeatureDestination)}).
     */
    default Iterable<StepBatch> batches(int batchSize, boolean shuffle, long seed, FeatureDestination into) {
        return batches(batchSize, shuffle, seed);
    }

    default int steps(int batchSize) {
        return (size() + batchSize - 1) / batchSize;
    }

    static BatchSource of(Dataset dataset) {
        return new BatchSource() {
            @Override
            public int size() {
                return dataset.size();
            }

            @Override
            public Shape[] inputShapes() {
                return new Shape[] {dataset.featureShape()};
            }

            @Override
            public Tensor[] allTargets() {
                return dataset instanceof dev.brisk.data.InMemoryDataset m ? new Tensor[] {m.labels()} : null;
            }

            @Override
            public Iterable<StepBatch> batches(int batchSize, boolean shuffle, long seed) {
                return batches(batchSize, shuffle, seed, null);
            }

            @Override
            public Iterable<StepBatch> batches(int batchSize, boolean shuffle, long seed, FeatureDestination into) {
                Iterable<Batch> inner = dataset.batches(batchSize, shuffle, seed, into);
                return () -> new Iterator<>() {
                    final Iterator<Batch> it = inner.iterator();

                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public StepBatch next() {
                        Batch b = it.next();
                        return new StepBatch(new Tensor[] {b.features()}, new Tensor[] {b.labels()}, b.size());
                    }
                };
            }
        };
    }

    /** Arrays with the sample axis first; {@code y} may be null (prediction). */
    static BatchSource of(Tensor[] x, Tensor[] y) {
        return of(x, y, null);
    }

    /**
     * Arrays with the sample axis first, and one weight per sample in the loss ({@code w}, or null); {@code y} may
     * be null (prediction).
     */
    static BatchSource of(Tensor[] x, Tensor[] y, Tensor w) {
        if (x == null || x.length == 0) {
            throw new IllegalArgumentException("the model's inputs need at least one array, got none");
        }
        int n = x[0].shape().rank() == 0 ? -1 : x[0].shape().dim(0);
        for (Tensor t : x) {
            check(t, n, "input");
        }
        if (y != null) {
            for (Tensor t : y) {
                check(t, n, "target");
            }
        }
        // One weight per sample, or (OutputWeights) one column per output of a model with several.
        boolean perOutput = OutputWeights.perOutput(w) && y != null && y.length > 1 && w.shape().dim(1) == y.length;
        if (w != null && (w.shape().rank() == 0 || w.shape().dim(0) != n || !perOutput && w.size() != n)) {
            throw new IllegalArgumentException("sample weights need one number per sample: " + n
                    + " expected, but they have shape " + w.shape());
        }
        // The weights travel as one more target array, split off again as each batch is made.
        Tensor[] yw = y == null ? new Tensor[0] : y;
        if (w != null) {
            yw = java.util.Arrays.copyOf(yw, yw.length + 1);
            yw[yw.length - 1] = perOutput ? w : w.reshape(Shape.of(n));
        }
        Tensor[] targets = yw;
        boolean weighted = w != null;
        return new BatchSource() {
            @Override
            public int size() {
                return n;
            }

            @Override
            public Shape[] inputShapes() {
                Shape[] s = new Shape[x.length];
                for (int i = 0; i < x.length; i++) {
                    s[i] = x[i].shape().dropFirst();
                }
                return s;
            }

            @Override
            public Tensor[] allTargets() {
                return y;
            }

            @Override
            public Iterable<StepBatch> batches(int batchSize, boolean shuffle, long seed) {
                return batches(batchSize, shuffle, seed, null);
            }

            @Override
            public Iterable<StepBatch> batches(int batchSize, boolean shuffle, long seed, FeatureDestination into) {
                return () -> new ArrayBatches(x, targets, weighted, batchSize,
                        shuffle ? Permutations.shuffled(n, seed) : null, x.length == 1 ? into : null);
            }
        };
    }

    private static void check(Tensor t, int n, String what) {
        if (t.shape().rank() == 0 || t.shape().dim(0) != n) {
            throw new IllegalArgumentException("all inputs and targets need the same number of samples: " + n
                    + " expected, but a " + what + " has shape " + t.shape());
        }
    }

    /**
     * Batches of arrays: views when in order, rows gathered into reused buffers when shuffled (the first input's
     * straight into the destination's tensor, when one is given and it names one of the right size).
     */
    final class ArrayBatches implements Iterator<StepBatch> {
        private final Tensor[] x;
        private final Tensor[] y;
        private final boolean weighted;
        private final int batchSize;
        private final int[] order;
        private final FeatureDestination into;
        private final int n;
        private int next;
        private Tensor[] xBuf;
        private Tensor[] yBuf;

        ArrayBatches(Tensor[] x, Tensor[] y, boolean weighted, int batchSize, int[] order, FeatureDestination into) {
            this.x = x;
            this.y = y;
            this.weighted = weighted;
            this.batchSize = batchSize;
            this.order = order;
            this.into = into;
            this.n = x[0].shape().dim(0);
        }

        @Override
        public boolean hasNext() {
            return next < n;
        }

        @Override
        public StepBatch next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            int size = Math.min(batchSize, n - next);
            Tensor[] bx;
            Tensor[] by;
            if (order == null) {
                bx = slices(x, next, size);
                by = slices(y, next, size);
            } else {
                if (xBuf == null) {
                    xBuf = buffers(x);
                    yBuf = buffers(y);
                }
                Tensor destination = into == null ? null : into.featuresFor(size);
                bx = gather(x, xBuf, destination, size);
                by = gather(y, yBuf, null, size);
            }
            next += size;
            if (!weighted) {
                return new StepBatch(bx, by, size);
            }
            return new StepBatch(bx, java.util.Arrays.copyOf(by, by.length - 1), by[by.length - 1], size);
        }

        private static Tensor[] slices(Tensor[] ts, int from, int size) {
            Tensor[] out = new Tensor[ts.length];
            for (int i = 0; i < ts.length; i++) {
                out[i] = ts[i].slice(from, from + size);
            }
            return out;
        }

        private Tensor[] buffers(Tensor[] ts) {
            Tensor[] out = new Tensor[ts.length];
            for (int i = 0; i < ts.length; i++) {
                out[i] = Tensor.zeros(ts[i].shape().withDim(0, batchSize), ts[i].dtype());
            }
            return out;
        }

        /** Gathers {@code size} rows of each array; the first into {@code destination} if it fits exactly. */
        private Tensor[] gather(Tensor[] src, Tensor[] buf, Tensor destination, int size) {
            Tensor[] out = new Tensor[src.length];
            for (int i = 0; i < src.length; i++) {
                int row = src[i].size() / n;
                Shape shape = src[i].shape().withDim(0, size);
                boolean direct = i == 0 && destination != null && destination.size() == shape.size();
                float[] s = src[i].data();
                float[] d = direct ? destination.data() : buf[i].data();
                int dOff = direct ? destination.offset() : buf[i].offset();
                for (int r = 0; r < size; r++) {
                    System.arraycopy(s, src[i].offset() + order[next + r] * row, d, dOff + r * row, row);
                }
                out[i] = direct ? Tensor.wrap(d, dOff, shape, src[i].dtype()) : buf[i].slice(0, size);
            }
            return out;
        }
    }
}
