package dev.brisk.nn;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;

/**
 * One output's predictions, appended batch by batch into a growing buffer: a pipeline's sample count is known only
 * at its end. An output with an open axis (a sequence length) takes the first batch's size for it, and every batch
 * must then have that one shape, since the rows become one tensor.
 */
final class PredictionRows {
    private float[] values;
    private int filled;
    private int samples;
    /** The per-sample shape of the rows: the declared one, or the first batch's where the declared one is open. */
    private Shape perSample;
    /** Whether the declared shape had an open axis, so that batches' shapes are checked against each other. */
    private final boolean open;

    /** Starts with room for {@code expectedSamples} (a hint; 0 when unknown). */
    PredictionRows(int expectedSamples, Shape perSample) {
        this.perSample = perSample;
        this.open = perSample.isOpen();
        this.values = new float[perSample.isOpen() ? 0 : Math.max(0, expectedSamples) * perSample.size()];
    }

    void add(Tensor batch) {
        if (open) {
            checkRows(batch);
        }
        if (filled + batch.size() > values.length) {
            values = Arrays.copyOf(values, Math.max(filled + batch.size(), 2 * values.length));
        }
        System.arraycopy(batch.data(), batch.offset(), values, filled, batch.size());
        filled += batch.size();
        samples += batch.shape().dim(0);
    }

    /** Takes the first batch's sizes for the open axes and refuses a later batch of other sizes. */
    private void checkRows(Tensor batch) {
        Shape rows = batch.shape().dropFirst();
        if (perSample.isOpen() && perSample.accepts(rows)) {
            perSample = rows;
        } else if (!perSample.equals(rows)) {
            throw new IllegalArgumentException("predict gathers the predictions into one tensor of rows "
                    + Layer.withBatch(perSample) + ", but a batch gave rows " + Layer.withBatch(rows) + ": a model"
                    + " with an open sequence length predicts batches of one length per call (pad them to one"
                    + " length, or call predict once per length)");
        }
    }

    /** The rows so far, {@code [samples, ...perSample]}; the open axes of an output no batch reached are refused. */
    Tensor toTensor() {
        if (perSample.isOpen()) {
            throw new IllegalArgumentException("predict got no batch, so the open axes of its output "
                    + Layer.withBatch(perSample) + " have no size");
        }
        float[] exact = filled == values.length ? values : Arrays.copyOf(values, filled);
        return Tensor.wrap(exact, 0, perSample.prepend(samples));
    }
}
