package dev.brisk.data;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * An input pipeline in the spirit of {@code tf.data.Dataset}: a source of elements and a chain of transformations
 * (parallel {@code map} that keeps the order, {@code filter}, seeded {@code shuffle}, {@code batch},
 * {@code prefetch}, {@code cache}, {@code repeat}, {@code take}, {@code skip}, {@code zip}), run on plain Java
 * threads inside the process's {@link dev.brisk.parallel.ThreadBudget}.
 *
 * <pre>{@code
 * Pipeline<Batch> train = Pipeline.from(IdxDatasets.load(images, labels, 1f))
 *         .shuffle(60_000, 42)
 *         .batch(128)
 *         .map(Batch.features(Rescaling.divideBy(255)), Pipeline.AUTOTUNE) // in place, on the batch
 *         .prefetch(Pipeline.AUTOTUNE);
 * model.fit(train, Fit.epochs(3));
 * }</pre>
 *
 * <p>{@code fit}, {@code evaluate} and {@code predict} give each batch back when its step is done
 * ({@link PipelineIterator#recycle}), and {@code batch} stacks later batches into its arrays, so a pipeline like
 * this one allocates no arrays per batch. (An elementwise map of single samples before {@code batch}, such as
 * {@code map(Sample.features(rescaling))}, still allocates each sample's result.)
 *
 * <p>A pipeline is an immutable recipe; each {@link #iterator()} is a new pass (an epoch). Passes are deterministic:
 * the same sources and seeds give the same elements in the same order whatever the number of threads, because
 * parallel maps keep the order, shuffles and random maps draw from seeds fixed by the pass number and the element's
 * position, and nothing depends on timing. Pass {@code k} of a stage (counted from 0 per stage object) uses
 * {@code seed + k}, so each epoch is shuffled anew, as with tf.data's {@code reshuffle_each_iteration}.
 *
 * <p>Elements must not be null, and functions given to {@code map} and {@code filter} must not modify their
 * input: elements may be views of shared storage, or cached.
 *
 * @param <T> the element type, for example {@link Sample} or {@link Batch}
 */
public abstract class Pipeline<T> implements Iterable<T> {
    /** Let the pipeline size map parallelism or the prefetch buffer from measured stalls (see {@link Autotuner}). */
    public static final int AUTOTUNE = -1;
    /** {@link #cardinality()} of a pipeline that never ends. */
    public static final long INFINITE = -1;
    /** {@link #cardinality()} of a pipeline whose length is known only by running it (after a filter). */
    public static final long UNKNOWN = -2;

    /** The reservation the last pass over this pipeline ended with, so the next one starts there. */
    private final AtomicInteger reservationHint = new AtomicInteger();
    /** The classes the labels are indexes into (see {@link #classNames()}), or null when unknown. */
    private List<String> classNames;

    Pipeline() {
    }

    /** Starts one pass of this stage, registering its threads and tunables with {@code tuner}. */
    abstract Cursor<T> open(Autotuner tuner);

    /**
     * The number of elements of a pass, or {@link #INFINITE} or {@link #UNKNOWN}.
     *
     * @return the count, or one of the two markers
     */
    public abstract long cardinality();

    /**
     * The class names the labels index, when the source knows them ({@link ImageDirectory}), or null. Every stage
     * that keeps the elements' labels keeps them (map, filter, shuffle, batch, prefetch, cache, repeat, take, skip,
     * ignoreErrors; not zip), so that {@code fit} can refuse training and validation data labelled by different
     * class lists.
     *
     * @return the class names, or null
     */
    public List<String> classNames() {
        return classNames;
    }

    /** Marks this source's labels as indexes into {@code names}. */
    Pipeline<T> labelledBy(List<String> names) {
        this.classNames = names == null ? null : List.copyOf(names);
        return this;
    }

    /** {@code stage}, made from this pipeline, with this pipeline's class names. */
    private <P extends Pipeline<?>> P keepLabels(P stage) {
        ((Pipeline<?>) stage).classNames = classNames;
        return stage;
    }

    // ---- sources ----

    /**
     * The elements of {@code items}, in order.
     *
     * @param <T> the element type
     * @param items the elements; copied, so later changes to the list are not seen
     * @return the pipeline
     */
    public static <T> Pipeline<T> fromList(List<? extends T> items) {
        List<? extends T> copy = List.copyOf(items);
        return new IndexedSource<>(copy.size(), copy::get);
    }

    /**
     * The integers {@code 0 .. n-1}.
     *
     * @param n the number of integers
     * @return the pipeline
     */
    public static Pipeline<Integer> range(int n) {
        return new IndexedSource<>(n, i -> i);
    }

    /**
     * The rows of {@code rows} (axis 0), each a tensor without that axis; views, not copies.
     *
     * @param rows the tensor whose first axis is split
     * @return the pipeline, one element per row
     */
    public static Pipeline<Tensor> fromTensor(Tensor rows) {
        if (rows.shape().rank() == 0) {
            throw new IllegalArgumentException("cannot slice a rank-0 tensor into rows");
        }
        return new IndexedSource<>(rows.shape().dim(0), rows(rows));
    }

    /**
     * One sample per row of {@code features} and {@code labels} (tf.data's {@code from_tensor_slices}); views,
     * not copies.
     *
     * @param features the features, sample axis first
     * @param labels the labels, sample axis first
     * @return the pipeline of samples
     * @throws IllegalArgumentException naming both shapes when they disagree on the number of samples
     */
    public static Pipeline<Sample> fromArrays(Tensor features, Tensor labels) {
        return from(new InMemoryDataset(features, labels));
    }

    /**
     * One sample per row of several arrays, for a model with several inputs or outputs: the inputs and targets
     * by position, each row of {@code weights} (or null) the sample's weight in the loss. Views, not copies.
     *
     * @param inputs one array per model input, sample axis first
     * @param targets one array per model output, sample axis first (empty for features only)
     * @param weights one weight per sample (Keras' {@code sample_weight}), or null
     * @return the pipeline of samples
     * @throws IllegalArgumentException naming the array whose number of samples differs from the first input's
     */
    public static Pipeline<Sample> fromArrays(Tensor[] inputs, Tensor[] targets, Tensor weights) {
        return fromParts(inputs.clone(), targets == null ? new Tensor[0] : targets.clone(), weights, null, null);
    }

    /**
     * One sample per row of arrays named after the model's input and output layers (Keras' dicts), each row of
     * {@code weights} (or null) the sample's weight; {@code fit} puts each array where its name says.
     *
     * @param inputs arrays by model input name, sample axis first
     * @param targets arrays by model output name (empty for features only)
     * @param weights one weight per sample, or null
     * @return the pipeline of samples
     */
    public static Pipeline<Sample> fromArrays(java.util.Map<String, Tensor> inputs,
                                              java.util.Map<String, Tensor> targets, Tensor weights) {
        return fromParts(inputs.values().toArray(new Tensor[0]), targets.values().toArray(new Tensor[0]), weights,
                java.util.List.copyOf(inputs.keySet()), targets.isEmpty() ? null : java.util.List.copyOf(
                        targets.keySet()));
    }

    private static Pipeline<Sample> fromParts(Tensor[] inputs, Tensor[] targets, Tensor weights,
                                              java.util.List<String> inputNames,
                                              java.util.List<String> targetNames) {
        if (inputs.length == 0) {
            throw new IllegalArgumentException("fromArrays needs at least one input array");
        }
        int n = inputs[0].shape().rank() == 0 ? -1 : inputs[0].shape().dim(0);
        java.util.List<Tensor> all = new java.util.ArrayList<>(java.util.List.of(inputs));
        all.addAll(java.util.List.of(targets));
        if (weights != null) {
            all.add(weights);
        }
        for (Tensor t : all) {
            if (t.shape().rank() == 0 || t.shape().dim(0) != n) {
                throw new IllegalArgumentException("fromArrays: every array needs the first input's " + n
                        + " samples along axis 0, but one has shape " + t.shape());
            }
        }
        @SuppressWarnings("unchecked")
        IntFunction<Tensor>[] x = new IntFunction[inputs.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = rows(inputs[i]);
        }
        @SuppressWarnings("unchecked")
        IntFunction<Tensor>[] y = new IntFunction[targets.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = rows(targets[i]);
        }
        IntFunction<Tensor> w = weights == null ? null : rows(weights.reshape(Shape.of(n)));
        return new IndexedSource<>(n, i -> {
            Tensor[] in = new Tensor[x.length];
            for (int k = 0; k < in.length; k++) {
                in[k] = x[k].apply(i);
            }
            Tensor[] out = new Tensor[y.length];
            for (int k = 0; k < out.length; k++) {
                out[k] = y[k].apply(i);
            }
            return new Sample(in, out, w == null ? null : w.apply(i), inputNames, targetNames);
        });
    }

    /**
     * The samples of an in-memory dataset, in storage order. Float features are views, not copies; features kept
     * as bytes are decoded into a new tensor as each sample is made, so the dataset's whole float copy
     * ({@link InMemoryDataset#features()}) is never made.
     *
     * @param data the dataset
     * @return the pipeline of samples
     */
    public static Pipeline<Sample> from(InMemoryDataset data) {
        BytePixels pixels = data.pixels();
        IntFunction<Tensor> x = pixels != null ? pixels::row : rows(data.features());
        IntFunction<Tensor> y = rows(data.labels());
        return new IndexedSource<>(data.size(), i -> new Sample(x.apply(i), y.apply(i)));
    }

    /** Row {@code i} of {@code t} as a view without the first axis. */
    private static IntFunction<Tensor> rows(Tensor t) {
        Shape row = t.shape().dropFirst();
        int size = row.size();
        DType dtype = t.dtype(); // INT32 rows (token ids) stay INT32
        return i -> Tensor.wrap(t.data(), t.offset() + i * size, row, dtype);
    }

    // ---- transformations ----

    /**
     * Applies {@code fn} to every element, on the thread that pulls elements (tf.data's sequential map).
     *
     * @param <R> the result type
     * @param fn the function
     * @return the mapped pipeline
     */
    public <R> Pipeline<R> map(Function<? super T, ? extends R> fn) {
        return map(fn, 0);
    }

    /**
     * Applies {@code fn} to every element on {@code parallelism} worker threads, or as many as AUTOTUNE finds
     * useful ({@link #AUTOTUNE}), delivering the results in input order. {@code fn} must be thread-safe.
     *
     * @param <R> the result type
     * @param fn the function; thread-safe
     * @param parallelism worker threads, or {@link #AUTOTUNE}
     * @return the mapped pipeline
     */
    public <R> Pipeline<R> map(Function<? super T, ? extends R> fn, int parallelism) {
        Objects.requireNonNull(fn, "map function");
        return keepLabels(new MapStage<R, T>(this, (e, pass, index) -> fn.apply(e), checkParallelism(parallelism)));
    }

    /**
     * Applies a random transformation (an augmentation) to every element, giving each element its own generator
     * seeded from {@code fn.seed()}, the pass and the element's position (see
     * {@link RandomTransform#generator}).
     *
     * @param <R> the result type
     * @param fn the transformation
     * @return the mapped pipeline
     */
    public <R> Pipeline<R> map(RandomTransform<? super T, ? extends R> fn) {
        return map(fn, 0);
    }

    /**
     * {@link #map(RandomTransform)} on {@code parallelism} workers or {@link #AUTOTUNE}; results are the same.
     *
     * @param <R> the result type
     * @param fn the transformation
     * @param parallelism worker threads, or {@link #AUTOTUNE}
     * @return the mapped pipeline
     */
    public <R> Pipeline<R> map(RandomTransform<? super T, ? extends R> fn, int parallelism) {
        long seed = fn.seed();
        return keepLabels(new MapStage<R, T>(this,
                (e, pass, index) -> fn.apply(e, RandomTransform.generator(seed, pass, index)),
                checkParallelism(parallelism)));
    }

    static int checkParallelism(int parallelism) {
        if (parallelism < 0 && parallelism != AUTOTUNE) {
            throw new IllegalArgumentException("map parallelism must be positive or AUTOTUNE, got " + parallelism);
        }
        return parallelism;
    }

    /**
     * The elements for which {@code predicate} is true.
     *
     * @param predicate keeps the elements it accepts
     * @return the filtered pipeline
     */
    public Pipeline<T> filter(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "filter predicate");
        return keepLabels(new DropStage<>(this, in -> {
            T e;
            do {
                e = in.next();
            } while (e != null && !predicate.test(e));
            return e;
        }));
    }

    /**
     * Shuffles with a buffer of {@code bufferSize} elements, as tf.data does: the buffer is filled with the first
     * elements, then each output is drawn at random from the buffer and its place taken by the next input. A
     * buffer at least as large as the input gives a uniformly random permutation (and then the order is exactly
     * {@link Permutations#shuffled}{@code (n, seed + pass)}, the order {@link InMemoryDataset} shuffles to, so the
     * same seed gives the same batches through a pipeline as through arrays). Directly after a source made by
     * {@code from}, {@code fromArrays}, {@code fromTensor}, {@code fromList} or {@code range}, such a shuffle
     * holds no elements: it permutes their indexes and makes each element as it is given.
     *
     * @param bufferSize the buffer's capacity in elements, at least 1
     * @param seed the seed; pass {@code k} uses {@code seed + k}
     * @return the shuffled pipeline
     */
    public Pipeline<T> shuffle(int bufferSize, long seed) {
        if (bufferSize < 1) {
            throw new IllegalArgumentException("shuffle buffer size must be at least 1, got " + bufferSize);
        }
        return keepLabels(new ShuffleStage<>(this, bufferSize, seed));
    }

    /**
     * {@link #shuffle(int, long)} with a seed from the clock: not reproducible; prefer passing a seed.
     *
     * @param bufferSize the buffer's capacity in elements
     * @return the shuffled pipeline
     */
    public Pipeline<T> shuffle(int bufferSize) {
        return shuffle(bufferSize, System.nanoTime() ^ 0x5DEECE66DL);
    }

    /**
     * {@link #batch(int, boolean)} keeping a smaller last batch.
     *
     * @param size samples per batch
     * @return the pipeline of batches
     */
    public Pipeline<Batch> batch(int size) {
        return batch(size, false);
    }

    /**
     * Stacks consecutive elements into batches of {@code size} along a new first axis. Elements must be
     * {@link Sample}s (features and labels stacked separately; samples without labels give batches without labels)
     * or {@link Tensor}s (stacked as features without labels), all of one shape. The last batch may be smaller,
     * unless {@code dropRemainder}.
     *
     * @param size samples per batch, at least 1
     * @param dropRemainder true to drop a smaller last batch
     * @return the pipeline of batches
     */
    public Pipeline<Batch> batch(int size, boolean dropRemainder) {
        if (size < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + size);
        }
        return keepLabels(new BatchStage(this, size, dropRemainder));
    }

    /**
     * {@link #paddedBatch(int, boolean)} keeping a smaller last batch.
     *
     * @param size samples per batch
     * @return the pipeline of padded batches
     */
    public Pipeline<Batch> paddedBatch(int size) {
        return paddedBatch(size, false);
    }

    /**
     * Stacks consecutive elements of different shapes (token sequences of different lengths) into batches, as
     * tf.data's {@code padded_batch}: each sample's features, and its label, are padded with zeros at the end of
     * every axis to the largest extent of that axis in the batch, so batches differ in shape. Zero is the padding id
     * ({@code Vocabulary.PADDING}, masked by {@code Embedding(maskZero)}). Elements must agree in rank and dtype.
     *
     * @param size samples per batch, at least 1
     * @param dropRemainder true to drop a smaller last batch
     * @return the pipeline of padded batches
     */
    public Pipeline<Batch> paddedBatch(int size, boolean dropRemainder) {
        return paddedBatch(size, PaddedBatchStage.LONGEST, dropRemainder);
    }

    /**
     * As {@link #paddedBatch(int, boolean)}, but the first axis of every part of rank 1 or more (a token sequence)
     * is padded to {@code length}, so every batch has one shape: the input of a model declared for sequences of
     * that length. Other axes are padded to the batch's largest.
     *
     * @param size samples per batch, at least 1
     * @param length the padded length of the first axis, at least 1; a longer sample is an error naming it
     * @param dropRemainder true to drop a smaller last batch
     * @return the pipeline of padded batches
     */
    public Pipeline<Batch> paddedBatch(int size, int length, boolean dropRemainder) {
        if (size < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + size);
        }
        if (length < 1 && length != PaddedBatchStage.LONGEST) {
            throw new IllegalArgumentException("padded length must be at least 1, got " + length);
        }
        return keepLabels(new PaddedBatchStage(this, size, length, dropRemainder));
    }

    /**
     * Produces up to {@code bufferSize} elements ahead on a background thread, so the consumer (the training loop)
     * and the rest of the pipeline overlap; {@link #AUTOTUNE} starts at 2 and grows the buffer when the consumer
     * waits.
     *
     * @param bufferSize elements to produce ahead, or {@link #AUTOTUNE}
     * @return the prefetching pipeline
     */
    public Pipeline<T> prefetch(int bufferSize) {
        if (bufferSize < 1 && bufferSize != AUTOTUNE) {
            throw new IllegalArgumentException("prefetch buffer size must be at least 1 or AUTOTUNE, got "
                    + bufferSize);
        }
        return keepLabels(new PrefetchStage<>(this, bufferSize));
    }

    /**
     * Keeps the elements of the first complete pass in memory and replays them in later passes (tf.data's
     * in-memory {@code cache}). A pass that stops early caches nothing. Random maps and shuffles before the cache
     * run once; put per-epoch randomness after it.
     *
     * @return the caching pipeline
     */
    public Pipeline<T> cache() {
        return keepLabels(new CacheStage<>(this));
    }

    /**
     * Repeats the elements forever (each repetition is a new pass of the stages above).
     *
     * @return the infinite pipeline
     */
    public Pipeline<T> repeat() {
        return keepLabels(new RepeatStage<>(this, -1));
    }

    /**
     * Repeats the elements {@code count} times.
     *
     * @param count the number of passes over the elements above
     * @return the repeating pipeline
     */
    public Pipeline<T> repeat(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("repeat count must be non-negative, got " + count);
        }
        return keepLabels(new RepeatStage<>(this, count));
    }

    /**
     * The first {@code n} elements; the stages above stop once they are delivered.
     *
     * @param n the number of elements
     * @return the shortened pipeline
     */
    public Pipeline<T> take(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("take count must be non-negative, got " + n);
        }
        return keepLabels(new TakeStage<>(this, n));
    }

    /**
     * All but the first {@code n} elements.
     *
     * @param n the number of elements to skip
     * @return the pipeline without them
     */
    public Pipeline<T> skip(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("skip count must be non-negative, got " + n);
        }
        return keepLabels(new SkipStage<>(this, n));
    }

    /**
     * Pairs of one element of this pipeline and one of {@code other}, until either ends.
     *
     * @param <U> the other pipeline's element type
     * @param other the other pipeline
     * @return the pipeline of pairs
     */
    public <U> Pipeline<Pair<T, U>> zip(Pipeline<U> other) {
        return zip(other, Pair::new);
    }

    /**
     * {@code combine} of one element of this pipeline and one of {@code other}, until either ends.
     *
     * @param <U> the other pipeline's element type
     * @param <R> the result type
     * @param other the other pipeline
     * @param combine makes one element of a pair
     * @return the combined pipeline
     */
    public <U, R> Pipeline<R> zip(Pipeline<U> other, BiFunction<? super T, ? super U, ? extends R> combine) {
        return new ZipStage<>(this, other, combine);
    }

    /**
     * Drops elements whose record is bad ({@link BadRecordException}), silently.
     *
     * @return the pipeline without bad records
     */
    public Pipeline<T> ignoreErrors() {
        return ignoreErrors(e -> { });
    }

    /**
     * Drops elements whose record is bad ({@link BadRecordException}) and tells {@code onError} about each, for
     * example a {@link BadRecords} that counts them. Other exceptions still stop the pass.
     *
     * @param onError told about each dropped record; called from the pipeline's threads
     * @return the pipeline without bad records
     */
    public Pipeline<T> ignoreErrors(Consumer<? super BadRecordException> onError) {
        Objects.requireNonNull(onError, "error handler");
        return keepLabels(new DropStage<>(this, in -> {
            while (true) {
                try {
                    return in.next();
                } catch (BadRecordException e) {
                    onError.accept(e);
                }
            }
        }));
    }

    // ---- running ----

    /** Starts a new pass. Close it when stopping early, to stop its threads at once. */
    @Override
    public PipelineIterator<T> iterator() {
        Autotuner tuner = new Autotuner(reservationHint);
        try {
            return new PipelineIterator<>(open(tuner), tuner);
        } catch (RuntimeException | Error e) {
            tuner.close();
            throw e;
        }
    }

    /**
     * All elements of one pass, in a list.
     *
     * @return the elements, in order
     */
    public List<T> toList() {
        if (cardinality() == INFINITE) {
            throw new IllegalStateException("cannot collect an infinite pipeline; use take(n) first");
        }
        List<T> out = new ArrayList<>();
        try (PipelineIterator<T> it = iterator()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /** The number of elements after dropping {@code n} of {@code c}, or the special cardinality. */
    static long minus(long c, long n) {
        return c < 0 ? c : Math.max(0, c - n);
    }
}
