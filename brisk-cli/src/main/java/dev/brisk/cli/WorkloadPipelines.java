package dev.brisk.cli;

import dev.brisk.data.Batch;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.Pipeline;
import dev.brisk.data.preprocessing.Rescaling;

/**
 * A reference workload's data through the input pipeline: the raw Fashion-MNIST pixels ([0, 255], as
 * {@code FashionMnist.load(dir, 1f)} reads them from the IDX files) shuffled, batched, scaled to [0, 1] on
 * AUTOTUNE's workers and prefetched. With the same seed it gives the batches {@code fit} makes from the scaled
 * arrays, bit for bit: the same permutation, and {@code x / 255f} as the loader computes it.
 */
final class WorkloadPipelines {
    private static final float PIXEL_DIVISOR = 255f;
    private static final Rescaling TO_UNIT = Rescaling.divideBy(PIXEL_DIVISOR);

    private WorkloadPipelines() {
    }

    /** Training batches from {@code raw} samples in the model's shape ({@code workload.prepare(...)}). */
    static Pipeline<Batch> training(InMemoryDataset raw, int batchSize, long seed) {
        return Pipeline.from(raw)
                .shuffle(raw.size(), seed)
                .batch(batchSize)
                .map(Batch.features(TO_UNIT), Pipeline.AUTOTUNE) // vectorised: one call per batch
                .prefetch(Pipeline.AUTOTUNE);
    }

    /**
     * {@code raw} with pixels scaled to [0, 1] as the loader scales them, for evaluation on arrays: still bytes,
     * divided as batches are read.
     */
    static InMemoryDataset scaled(InMemoryDataset raw) {
        return raw.dividedBy(PIXEL_DIVISOR);
    }
}
