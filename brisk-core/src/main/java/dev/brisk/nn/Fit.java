package dev.brisk.nn;

import dev.brisk.callbacks.Callback;
import dev.brisk.data.Batch;
import dev.brisk.data.Dataset;
import dev.brisk.data.Pipeline;
import dev.brisk.profile.ProfileWindow;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    Pipeline<Batch> validationPipeline;
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
        this.validationX = new Tensor[] {x};
        this.validationY = new Tensor[] {y};
        return this;
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
