package dev.brisk.nn;

import dev.brisk.callbacks.Callback;
import dev.brisk.data.Batch;
import dev.brisk.data.Dataset;
import dev.brisk.data.Pipeline;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/** The options of {@code fit}, with Keras' defaults: 1 epoch, batch size 32, shuffle, verbose 1. */
public final class Fit {
    int epochs = 1;
    int batchSize = 32;
    boolean shuffle = true;
    int verbose = 1;
    Long seed;
    Dataset validationData;
    Tensor[] validationX;
    Tensor[] validationY;
    Pipeline<Batch> validationPipeline;
    int stepsPerEpoch;
    final List<Callback> callbacks = new ArrayList<>();

    private Fit() {
    }

    /** Train for {@code n} epochs. */
    public static Fit epochs(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, got " + n);
        }
        Fit f = new Fit();
        f.epochs = n;
        return f;
    }

    public Fit batchSize(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + size);
        }
        this.batchSize = size;
        return this;
    }

    /** Shuffle the training data before each epoch (default true). */
    public Fit shuffle(boolean shuffle) {
        this.shuffle = shuffle;
        return this;
    }

    /** 0 silent, 1 progress bar, 2 one line per epoch. */
    public Fit verbose(int level) {
        this.verbose = level;
        return this;
    }

    /** Seed of the shuffling order (default: from {@link RandomSeed}). */
    public Fit seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** Data to evaluate at the end of each epoch ("val_" metrics). */
    public Fit validation(Dataset data) {
        this.validationData = data;
        return this;
    }

    public Fit validation(Tensor x, Tensor y) {
        this.validationX = new Tensor[] {x};
        this.validationY = new Tensor[] {y};
        return this;
    }

    /** A pipeline of (features, labels) batches to evaluate at the end of each epoch ("val_" metrics). */
    public Fit validation(Pipeline<Batch> data) {
        this.validationPipeline = data;
        return this;
    }

    /**
     * For a {@link Pipeline}: an epoch is {@code steps} batches, read from one pass that continues across epochs
     * (needed for a pipeline that repeats forever). Arrays and datasets always train on every sample per epoch.
     */
    public Fit stepsPerEpoch(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps per epoch must be at least 1, got " + steps);
        }
        this.stepsPerEpoch = steps;
        return this;
    }

    public Fit callbacks(Callback... cbs) {
        callbacks.addAll(List.of(cbs));
        return this;
    }
}
