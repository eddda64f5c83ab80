package dev.brisk.nn;

import dev.brisk.callbacks.Callback;
import dev.brisk.data.Batch;
import dev.brisk.data.Dataset;
import dev.brisk.data.Pipeline;
import dev.brisk.profile.ProfileWindow;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The options of {@code fit}, with Keras' defaults: 1 epoch, batch size 32, shuffle, verbose 1. */
public final class Fit {
    int epochs = 1;
    int batchSize = 32;
    /** Whether {@link #batchSize} was called: fitting a pipeline, which makes its own batches, refuses it. */
    boolean batchSizeGiven;
    boolean shuffle = true;
    int verbose = 1;
    Long seed;
    Dataset validationData;
    Tensor[] validationX;
    Tensor[] validationY;
    /** The validation samples' weights in the loss (from {@link #validationSplit} of weighted arrays), or null. */
    Tensor validationWeights;
    /** The validation samples' weights given one array per output, or null. */
    Tensor[] validationWeightsPerOutput;
    Pipeline<Batch> validationPipeline;
    /** Keras' {@code class_weight}: the weight of each class index in the loss, or null. */
    Map<Integer, Float> classWeight;
    /** Keras' {@code sample_weight} for array fits: one weight per sample, or null. */
    Tensor sampleWeight;
    /** Keras' {@code sample_weight} as a list: one weight array per output, or null. */
    Tensor[] sampleWeightPerOutput;
    /** Keras' {@code sample_weight} as a dict: weight arrays by output layer name, or null. */
    Map<String, Tensor> sampleWeightByName;
    /** Keras' {@code validation_split}: the fraction of the arrays, taken from their end, to validate on. */
    float validationSplit;
    int stepsPerEpoch;
    /** Whether this fit profiles some steps ({@link #profile}, {@link #profileSteps}). */
    boolean profiled;
    /** Where the profile's Chrome trace goes, or null for none. */
    Path profileTrace;
    ProfileWindow profileSteps;
    final List<Callback> callbacks = new ArrayList<>();
    Distribution distribution = Distribution.singleProcess();
    /** Keras' {@code initial_epoch}: the epoch training starts at (epochs before it count as done). */
    int initialEpoch;
    /** Batches of {@link #initialEpoch} already trained (a resumed run skips them). */
    int initialStep;

    private Fit() {
    }

    /** A copy of these options, for {@code fit} to adjust (a validation split) without changing the caller's. */
    Fit copy() {
        Fit f = new Fit();
        f.epochs = epochs;
        f.batchSize = batchSize;
        f.batchSizeGiven = batchSizeGiven;
        f.shuffle = shuffle;
        f.verbose = verbose;
        f.seed = seed;
        f.validationData = validationData;
        f.validationX = validationX;
        f.validationY = validationY;
        f.validationWeights = validationWeights;
        f.validationWeightsPerOutput = validationWeightsPerOutput;
        f.validationPipeline = validationPipeline;
        f.classWeight = classWeight;
        f.sampleWeight = sampleWeight;
        f.sampleWeightPerOutput = sampleWeightPerOutput;
        f.sampleWeightByName = sampleWeightByName;
        f.validationSplit = validationSplit;
        f.stepsPerEpoch = stepsPerEpoch;
        f.profiled = profiled;
        f.profileTrace = profileTrace;
        f.profileSteps = profileSteps;
        f.callbacks.addAll(callbacks);
        f.distribution = distribution;
        f.initialEpoch = initialEpoch;
        f.initialStep = initialStep;
        return f;
    }

    /** Whether validation data of any kind was given. */
    boolean hasValidation() {
        return validationData != null || validationX != null || validationPipeline != null;
    }

    /**
     * Refuses the options that only arrays take ({@link #sampleWeight}, {@link #validationSplit}), as Keras does,
     * instead of ignoring them.
     *
     * @param what the kind of training data, for the message
     */
    void requireArrays(String what, String model) {
        boolean weighted = sampleWeight != null || sampleWeightPerOutput != null || sampleWeightByName != null;
        if (weighted || validationSplit > 0) {
            throw new IllegalArgumentException("fit of model '" + model + "' on " + what + ": "
                    + (weighted ? "Fit.sampleWeight" : "Fit.validationSplit") + " applies to arrays only"
                    + " (fit(x, y, ...)), as in Keras");
        }
    }
    /**
     * Train for {@code n} epochs.
     *
     * @param n the number of epochs, at least 1
     * @return the options, with Keras' other defaults
     */
    public static Fit epochs(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, got " + n);
        }
        Fit f = new Fit();
        f.epochs = n;
        return f;
    }

    /**
     * Starts at epoch {@code epoch} (Keras' {@code initial_epoch}), as a run resumed after an interruption does:
     * epochs {@code epoch} to {@code epochs - 1} are trained, numbered as in the interrupted run, and each shuffles
     * with the seed that epoch had ({@code seed + epoch}).
     *
     * @param epoch the first epoch to train, from 0 to {@code epochs - 1}
     * @return these options
     */
    public Fit initialEpoch(int epoch) {
        if (epoch < 0 || epoch >= epochs) {
            throw new IllegalArgumentException("initialEpoch must be from 0 to epochs - 1 = " + (epochs - 1)
                    + ", got " + epoch);
        }
        this.initialEpoch = epoch;
        this.initialStep = 0;
        return this;
    }

    /**
     * Sets the number of samples per training step.
     *
     * @param size the batch size, at least 1 (default 32)
     * @return these options
     */
    public Fit batchSize(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + size);
        }
        this.batchSize = size;
        this.batchSizeGiven = true;
        return this;
    }

    /**
     * Shuffle the training data before each epoch (default true).
     *
     * @param shuffle false to train in data order
     * @return these options
     */
    public Fit shuffle(boolean shuffle) {
        this.shuffle = shuffle;
        return this;
    }

    /**
     * 0 silent, 1 progress bar, 2 one line per epoch.
     *
     * @param level the verbosity
     * @return these options
     */
    public Fit verbose(int level) {
        this.verbose = level;
        return this;
    }

    /**
     * Seed of the shuffling order (default: from {@link RandomSeed}).
     *
     * @param seed the seed
     * @return these options
     */
    public Fit seed(long seed) {
        this.seed = seed;
        return this;
    }

    /**
     * Data to evaluate at the end of each epoch ("val_" metrics).
     *
     * @param data the validation data
     * @return these options
     */
    public Fit validation(Dataset data) {
        this.validationData = data;
        return this;
    }

    /**
     * Evaluates on inputs {@code x} and labels {@code y} after every epoch.
     *
     * @param x the validation inputs, sample axis first
     * @param y the validation targets, sample axis first
     * @return these options
     */
    public Fit validation(Tensor x, Tensor y) {
        return validation(new Tensor[] {x}, new Tensor[] {y});
    }

    /**
     * Evaluates on inputs {@code x} and labels {@code y} after every epoch, each sample's loss and weighted metrics
     * weighted as in training (Keras' {@code validation_data=(x, y, sample_weight)}).
     *
     * @param x the validation inputs, sample axis first
     * @param y the validation targets, sample axis first
     * @param sampleWeights one finite weight of at least 0 per validation sample, shape {@code (samples)}
     * @return these options
     */
    public Fit validation(Tensor x, Tensor y, Tensor sampleWeights) {
        return validation(new Tensor[] {x}, new Tensor[] {y}, sampleWeights);
    }

    /**
     * Evaluates a multi-input / multi-output model on arrays after every epoch.
     *
     * @param x one validation array per model input, sample axis first
     * @param y one validation array per model output, sample axis first
     * @return these options
     */
    public Fit validation(Tensor[] x, Tensor[] y) {
        this.validationX = x.clone();
        this.validationY = y.clone();
        this.validationWeights = null;
        this.validationWeightsPerOutput = null;
        return this;
    }

    /**
     * Evaluates a multi-input / multi-output model on weighted arrays after every epoch (Keras'
     * {@code validation_data=(x, y, sample_weight)}): each sample's weight applies to every output's loss and
     * weighted metrics.
     *
     * @param x one validation array per model input, sample axis first
     * @param y one validation array per model output, sample axis first
     * @param sampleWeights one finite weight of at least 0 per validation sample, shape {@code (samples)}
     * @return these options
     */
    public Fit validation(Tensor[] x, Tensor[] y, Tensor sampleWeights) {
        validation(x, y);
        this.validationWeights = checkedWeights("validation sample weight", sampleWeights);
        return this;
    }

    /**
     * Evaluates a multi-output model on arrays after every epoch with one weight array per output, in output order
     * (Keras' {@code validation_data=(x, y, [w1, w2])}).
     *
     * @param x one validation array per model input, sample axis first
     * @param y one validation array per model output, sample axis first
     * @param sampleWeights one array of finite weights of at least 0 per output, each of shape {@code (samples)}
     * @return these options
     */
    public Fit validation(Tensor[] x, Tensor[] y, Tensor[] sampleWeights) {
        validation(x, y);
        for (Tensor w : sampleWeights) {
            checkedWeights("validation sample weight", w);
        }
        this.validationWeightsPerOutput = sampleWeights.clone();
        return this;
    }

    /**
     * Keras' {@code validation_split}: validates on the last {@code fraction} of the arrays given to {@code fit},
     * taken before any shuffling ({@code floor(n * (1 - fraction))} samples train), and trains on the rest. Arrays
     * only; not with other validation data.
     *
     * @param fraction the share of samples to hold out, strictly between 0 and 1
     * @return these options
     */
    public Fit validationSplit(float fraction) {
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("validationSplit must be strictly between 0 and 1, got " + fraction);
        }
        this.validationSplit = fraction;
        return this;
    }

    /**
     * Keras' {@code class_weight}: each sample's loss is multiplied by its class's weight (classes not in the map
     * weigh 1), as if the class's samples were repeated; for single-output models whose targets are class indexes,
     * one-hot rows (their largest entry) or 0/1 labels. Not with sample weights.
     *
     * @param weights weight by class index, each finite and at least 0
     * @return these options
     */
    public Fit classWeight(Map<Integer, Float> weights) {
        for (Map.Entry<Integer, Float> e : weights.entrySet()) {
            if (e.getKey() == null || e.getValue() == null || !Float.isFinite(e.getValue()) || e.getValue() < 0) {
                throw new IllegalArgumentException("class weight " + e.getKey() + " -> " + e.getValue()
                        + ": a class index and a finite weight of at least 0 expected");
            }
        }
        this.classWeight = Map.copyOf(weights);
        return this;
    }

    /**
     * Keras' {@code sample_weight} for a fit on arrays: sample {@code i}'s loss is multiplied by
     * {@code weights[i]}, and the batch's loss is the sum over its samples divided by the batch size (Keras'
     * {@code sum_over_batch_size}), so a weight of 0 removes a sample's effect. Only the metrics compiled as
     * {@link dev.brisk.metrics.Metrics#weighted} count the weights (Keras' {@code weighted_metrics}; the others are
     * its {@code metrics}). A pipeline carries weights in its samples instead
     * ({@link dev.brisk.data.Sample#withWeight}).
     *
     * @param weights one finite weight of at least 0 per training sample, shape {@code (samples)}
     * @return these options
     */
    public Fit sampleWeight(Tensor weights) {
        this.sampleWeight = checkedWeights("sample weight", weights);
        this.sampleWeightPerOutput = null;
        this.sampleWeightByName = null;
        return this;
    }

    /**
     * Keras' {@code sample_weight} as a list, one array per output in output order: output {@code i}'s loss and
     * weighted metrics weigh sample {@code s} by {@code weights[i][s]}; a validation split holds out the same rows
     * of each.
     *
     * @param weights one array of finite weights of at least 0 per output, each of shape {@code (samples)}
     * @return these options
     */
    public Fit sampleWeight(Tensor[] weights) {
        for (Tensor w : weights) {
            checkedWeights("sample weight", w);
        }
        this.sampleWeightPerOutput = weights.clone();
        this.sampleWeight = null;
        this.sampleWeightByName = null;
        return this;
    }

    /**
     * Keras' {@code sample_weight} as a dict, by output layer name: an output left out weighs every sample 1.
     *
     * @param weights arrays of finite weights of at least 0, each of shape {@code (samples)}, by output name
     * @return these options
     */
    public Fit sampleWeight(Map<String, Tensor> weights) {
        for (Tensor w : weights.values()) {
            checkedWeights("sample weight", w);
        }
        this.sampleWeightByName = Map.copyOf(weights);
        this.sampleWeight = null;
        this.sampleWeightPerOutput = null;
        return this;
    }

    /**
     * These options with the per-output sample weights stacked into one {@code (samples, outputs)} array for
     * {@code model} (a copy), or these options when the weights are one array for all outputs or absent.
     */
    Fit resolveOutputWeights(Model model) {
        if (sampleWeightPerOutput == null && sampleWeightByName == null) {
            if (sampleWeight == null || sampleWeight.shape().rank() == 1) {
                return this;
            }
            // One array for every output, whatever its shape: (samples, 1) is read as (samples).
            Fit f = copy();
            f.sampleWeight = sampleWeight.reshape(Shape.of(sampleWeight.size()));
            return f;
        }
        Fit f = copy();
        f.sampleWeight = OutputWeights.flatForOneOutput(sampleWeightPerOutput != null
                ? OutputWeights.byPosition(model, sampleWeightPerOutput)
                : OutputWeights.byName(model, sampleWeightByName));
        f.sampleWeightPerOutput = null;
        f.sampleWeightByName = null;
        return f;
    }

    /** {@code weights} when each is finite and at least 0. */
    private static Tensor checkedWeights(String what, Tensor weights) {
        if (weights == null) {
            throw new IllegalArgumentException(what + "s: null given; leave them out for none");
        }
        for (int i = 0; i < weights.size(); i++) {
            float w = weights.get(i);
            if (!Float.isFinite(w) || w < 0) {
                throw new IllegalArgumentException(what + " " + i + " is " + w
                        + ": finite weights of at least 0 expected");
            }
        }
        return weights;
    }

    /**
     * A pipeline of (features, labels) batches to evaluate at the end of each epoch ("val_" metrics).
     *
     * @param data the validation pipeline; one pass per epoch
     * @return these options
     */
    public Fit validation(Pipeline<Batch> data) {
        this.validationPipeline = data;
        return this;
    }

    /**
     * For a {@link Pipeline}: an epoch is {@code steps} batches, read from one pass that continues across epochs
     * (needed for a pipeline that repeats forever). Arrays and datasets always train on every sample per epoch.
     *
     * @param steps batches per epoch, at least 1
     * @return these options
     */
    public Fit stepsPerEpoch(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps per epoch must be at least 1, got " + steps);
        }
        this.stepsPerEpoch = steps;
        return this;
    }

    /**
     * Adds callbacks that see every epoch and batch of the fit.
     *
     * @param cbs the callbacks, called in order
     * @return these options
     */
    public Fit callbacks(Callback... cbs) {
        callbacks.addAll(List.of(cbs));
        return this;
    }

    /**
     * Profiles a few steps after warm-up ({@link ProfileWindow#afterWarmup}: steps 51-55, or the last five of a
     * shorter fit): writes their Chrome trace to {@code trace} and prints the summary (unless verbose is 0); the
     * model keeps it ({@code Model.lastProfile()}).
     *
     * @param trace the Chrome-trace file to write
     * @return these options
     */
    public Fit profile(Path trace) {
        this.profileTrace = Objects.requireNonNull(trace, "trace");
        this.profileSteps = null;
        this.profiled = true;
        return this;
    }

    /**
     * Profiles training steps {@code firstStep} to {@code lastStep}, counted from 1 over the whole fit and both
     * included (Keras' {@code profile_batch=(first, last)}).
     *
     * @param trace the Chrome-trace file to write
     * @param firstStep the first profiled step, at least 1
     * @param lastStep the last profiled step, at least {@code firstStep}
     * @return these options
     */
    public Fit profile(Path trace, int firstStep, int lastStep) {
        this.profileTrace = Objects.requireNonNull(trace, "trace");
        this.profileSteps = new ProfileWindow(firstStep, lastStep);
        this.profiled = true;
        return this;
    }

    /**
     * Profiles training steps {@code firstStep} to {@code lastStep} as {@link #profile(Path, int, int)} does, but
     * writes no trace: for a program that reads {@code Model.lastProfile()} itself.
     *
     * @param firstStep the first profiled step, at least 1
     * @param lastStep the last profiled step, at least {@code firstStep}
     * @return these options
     */
    public Fit profileSteps(int firstStep, int lastStep) {
        this.profileTrace = null;
        this.profileSteps = new ProfileWindow(firstStep, lastStep);
        this.profiled = true;
        return this;
    }

    /**
     * Spreads each step over replicas: in this process ({@link Distribution#replicas}) or over workers
     * ({@link Distribution#worker}); the batch size stays the global one. The default is
     * {@link Distribution#singleProcess()}.
     *
     * @param distribution how steps are spread
     * @return this
     */
    public Fit distribution(Distribution distribution) {
        this.distribution = Objects.requireNonNull(distribution, "distribution");
        return this;
    }

    /**
     * Starts at epoch {@code epoch} (0-based, Keras' {@code initial_epoch}) and skips its first {@code step}
     * batches, to resume a run that stopped there: the shuffle is seeded per epoch, so with the same
     * {@link #seed} the remaining batches are the ones the interrupted run would have drawn. Restore the weights,
     * the optimizer's state and its {@link dev.brisk.optimizers.Optimizer#setIterations iterations} first.
     *
     * @param epoch the epoch to start in, below {@link #epochs}
     * @param step the batches of that epoch already trained, at least 0
     * @return this
     */
    public Fit resumeAt(int epoch, int step) {
        if (epoch < 0 || epoch >= epochs || step < 0) {
            throw new IllegalArgumentException("cannot resume at epoch " + epoch + ", step " + step + " of a fit of "
                    + epochs + " epoch(s)");
        }
        this.initialEpoch = epoch;
        this.initialStep = step;
        return this;
    }
}
