package dev.brisk.data;

import dev.brisk.tensor.Shape;

/** A dataset that passes every call on to another one; a test overrides the calls it watches or changes. */
public abstract class ForwardingDataset implements Dataset {
    protected final Dataset inner;

    protected ForwardingDataset(Dataset inner) {
        this.inner = inner;
    }

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public Shape featureShape() {
        return inner.featureShape();
    }

    @Override
    public Shape labelShape() {
        return inner.labelShape();
    }

    @Override
    public Iterable<Batch> batches(int batchSize, boolean shuffle, long seed) {
        return inner.batches(batchSize, shuffle, seed);
    }
}
