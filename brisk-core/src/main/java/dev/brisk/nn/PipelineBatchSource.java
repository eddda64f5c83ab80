package dev.brisk.nn;

import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.data.PipelineIterator;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Batches from a {@link Pipeline} of batches, for fit, evaluate and predict. The pipeline batches and shuffles
 * itself, so the loop's batch size, shuffle flag and seed are ignored (as Keras ignores them for a tf.data dataset).
 *
 * <p>The first batch is read ahead to learn the input shape and kept for the first epoch. Without steps per epoch
 * each epoch is one pass of the pipeline; with them, an epoch is that many batches taken from one pass that
 * continues across epochs, and a new pass starts only when one ends. Closing stops a pass left open.
 *
 * <p>The loops read a step's batch only until they ask for the next one (the compiled step copies it into the
 * plan's input buffers; an eager step's values, which may view it, are used up by the metrics before that), so
 * each batch is given back to the pipeline ({@link PipelineIterator#recycle}) at the next {@code hasNext()}, and
 * a later batch is stacked into its arrays instead of new ones.
 */
final class PipelineBatchSource implements BatchSource, AutoCloseable {
    private final Pipeline<Batch> pipeline;
    private final int stepsPerEpoch;
    private final boolean needLabels;
    private final String use;
    private PipelineIterator<Batch> open;
    private Batch peeked;
    private boolean peekedOnce;
    /** The first batch's size and feature shape; they outlive the read-ahead batch itself. */
    private int firstSize;
    private Shape sampleShape;

    /**
     * @param stepsPerEpoch batches per epoch, or 0 for one pass per epoch
     * @param needLabels whether batches must have labels (fit, evaluate) or may be features only (predict)
     * @param use what the batches are for, for messages ("fit")
     */
    PipelineBatchSource(Pipeline<Batch> pipeline, int stepsPerEpoch, boolean needLabels, String use) {
        this.pipeline = pipeline;
        this.stepsPerEpoch = stepsPerEpoch;
        this.needLabels = needLabels;
        this.use = use;
        if (stepsPerEpoch == 0 && pipeline.cardinality() == Pipeline.INFINITE) {
            throw new IllegalArgumentException(use + " got a pipeline that repeats forever; give the number of "
                    + "batches per epoch with Fit.stepsPerEpoch(n), or use repeat(count)");
        }
    }

    private Batch peek() {
        if (!peekedOnce) {
            peekedOnce = true;
            open = pipeline.iterator();
            peeked = open.hasNext() ? open.next() : null;
            if (peeked != null) {
                firstSize = peeked.size();
                sampleShape = peeked.features().shape().dropFirst();
            }
        }
        return peeked;
    }

    /** The samples of one epoch, estimated from the first batch when the pipeline cannot tell (progress only). */
    @Override
    public int size() {
        peek();
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.max(1, steps(0)) * firstSize);
    }

    @Override
    public int steps(int batchSize) {
        if (stepsPerEpoch > 0) {
            return stepsPerEpoch;
        }
        long c = pipeline.cardinality();
        return c >= 0 ? (int) Math.min(Integer.MAX_VALUE, c) : 0;
    }

    @Override
    public Shape[] inputShapes() {
        peek();
        if (sampleShape == null) {
            throw new IllegalArgumentException(use + " needs at least one sample, but the pipeline gave no batch");
        }
        return new Shape[] {sampleShape};
    }

    @Override
    public Tensor[] allTargets() {
        return null;
    }

    @Override
    public Iterable<StepBatch> batches(int batchSize, boolean shuffle, long seed) {
        return () -> new Iterator<>() {
            private final PipelineIterator<Batch> it = start();
            private Batch first = takePeeked();
            /** The batch of the step in progress, given back once the loop moves on. */
            private Batch current;
            private int steps;

            @Override
            public boolean hasNext() {
                if (current != null) {
                    it.recycle(current);
                    current = null;
                }
                if (stepsPerEpoch > 0 && steps >= stepsPerEpoch) {
                    return false;
                }
                boolean more = first != null || it.hasNext();
                if (!more) {
                    it.close();
                    if (open == it) {
                        open = null;
                    }
                }
                return more;
            }

            @Override
            public StepBatch next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Batch b = first != null ? first : it.next();
                first = null;
                current = b;
                return toStep(b, steps++);
            }
        };
    }

    /** The pass to read from: the one still open (read ahead, or continuing across epochs), else a new one. */
    private PipelineIterator<Batch> start() {
        peek();
        boolean continuing = peeked != null || stepsPerEpoch > 0;
        if (!continuing && open != null) { // a pass left unfinished (training stopped early) is not resumed
            open.close();
            open = null;
        }
        if (open == null) {
            open = pipeline.iterator();
        }
        return open;
    }

    /** Stops a pass left open (training stopped early), so its threads and reserved threads are freed now. */
    @Override
    public void close() {
        if (open != null) {
            open.close();
            open = null;
        }
        peeked = null;
    }

    private Batch takePeeked() {
        Batch b = peeked;
        peeked = null;
        return b;
    }

    private StepBatch toStep(Batch b, int step) {
        if (b.labels() == null && needLabels) {
            throw new IllegalArgumentException(use + " needs (features, labels) batches, but batch " + step
                    + " of the pipeline has features only");
        }
        Tensor[] y = b.labels() == null ? new Tensor[0] : new Tensor[] {b.labels()};
        return new StepBatch(new Tensor[] {b.features()}, y, b.size());
    }
}
