package dev.brisk.nn;

import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.data.PipelineIterator;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Iterator;
import java.util.List;
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
    /** The model, whose input and output layer names named batch parts are put in the order of. */
    private final Model model;
    /** The model's input and output layer names, kept once the model is built (no allocation per batch). */
    private List<String> inputNames = List.of();
    private List<String> outputNames = List.of();
    private PipelineIterator<Batch> open;
    private Batch peeked;
    private boolean peekedOnce;
    /** The first batch's size and feature shape; they outlive the read-ahead batch itself. */
    private int firstSize;
    private Shape[] sampleShapes;

    /**
     * @param stepsPerEpoch batches per epoch, or 0 for one pass per epoch
     * @param needLabels whether batches must have labels (fit, evaluate) or may be features only (predict)
     * @param use what the batches are for, for messages ("fit")
     */
    PipelineBatchSource(Model model, Pipeline<Batch> pipeline, int stepsPerEpoch, boolean needLabels, String use) {
        this.model = model;
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
                Tensor[] x = inputs(peeked, 0);
                sampleShapes = new Shape[x.length];
                for (int i = 0; i < x.length; i++) {
                    sampleShapes[i] = x[i].shape().dropFirst();
                }
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
        if (sampleShapes == null) {
            throw new IllegalArgumentException(use + " needs at least one sample, but the pipeline gave no batch");
        }
        return sampleShapes.clone();
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
        if (b.targets().length == 0 && needLabels) {
            throw new IllegalArgumentException(use + " needs (features, labels) batches, but batch " + step
                    + " of the pipeline has features only");
        }
        Tensor[] y = b.targets().length == 0 ? new Tensor[0]
                : ordered(b.targets(), b.targetNames(), outputNames(), "target", "output", step);
        return new StepBatch(inputs(b, step), y, b.weights(), b.size());
    }

    private Tensor[] inputs(Batch b, int step) {
        return ordered(b.inputs(), b.inputNames(), inputNames(), "input", "input", step);
    }

    private List<String> inputNames() {
        if (inputNames.isEmpty()) {
            inputNames = names(model.inputs());
        }
        return inputNames;
    }

    private List<String> outputNames() {
        if (outputNames.isEmpty()) {
            outputNames = names(model.outputs());
        }
        return outputNames;
    }

    private static List<String> names(List<SymbolicTensor> tensors) {
        return tensors.stream().map(t -> t.layer().name()).toList();
    }

    /**
     * A batch's parts in the model's order: by position when the batch names none (their number must match), or
     * by the model's layer names, every one of which the batch must name (a name it does not know is refused, not
     * ignored, as Keras does).
     */
    private Tensor[] ordered(Tensor[] parts, List<String> names, List<String> modelNames, String kind,
                             String modelKind, int step) {
        if (names == null) {
            // A model not built yet (a Sequential without an input layer) takes its one input's shape from here.
            if (parts.length != modelNames.size() && !modelNames.isEmpty()) {
                throw new IllegalArgumentException(use + ": the model has " + modelNames.size() + " " + modelKind
                        + "(s) " + modelNames + " but batch " + step + " of the pipeline has " + parts.length
                        + " " + kind + "(s)");
            }
            return parts;
        }
        Tensor[] out = new Tensor[modelNames.size()];
        for (int i = 0; i < out.length; i++) {
            int k = names.indexOf(modelNames.get(i));
            if (k < 0) {
                throw new IllegalArgumentException(use + ": batch " + step + " of the pipeline names its " + kind
                        + "s " + names + " but has none for the model's " + modelKind + " '" + modelNames.get(i)
                        + "' (the model's " + modelKind + "s are " + modelNames + ")");
            }
            out[i] = parts[k];
        }
        if (names.size() != out.length) {
            List<String> unknown = names.stream().filter(n -> !modelNames.contains(n)).toList();
            throw new IllegalArgumentException(use + ": batch " + step + " of the pipeline has " + kind + "s "
                    + unknown + " that match no " + modelKind + " of the model " + modelNames);
        }
        return out;
    }
}
