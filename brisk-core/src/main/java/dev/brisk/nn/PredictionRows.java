package dev.brisk.nn;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;

/**
 * One output's predictions, appended batch by batch into a growing buffer: a pipeline's sample count is known only
 * at its end.
 */
final class PredictionRows {
    private float[] values;
    private int filled;
    private int samples;

    /** Starts with room for {@code expectedSamples} (a hint; 0 when unknown). */
    PredictionRows(int expectedSamples, Shape perSample) {
        this.values = new float[Math.max(0, expectedSamples) * perSample.size()];
    }

    void add(Tensor batch) {
        if (filled + batch.size() > values.length) {
            values = Arrays.copyOf(values, Math.max(filled + batch.size(), 2 * values.length));
        }
        System.arraycopy(batch.data(), batch.offset(), values, filled, batch.size());
        filled += batch.size();
        samples += batch.shape().dim(0);
    }

    /** The rows so far, {@code [samples, ...perSample]}. */
    Tensor toTensor(Shape perSample) {
        float[] exact = filled == values.length ? values : Arrays.copyOf(values, filled);
        return Tensor.wrap(exact, 0, perSample.prepend(samples));
    }
}
