package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * Class indexes to one-hot vectors (Keras' {@code CategoryEncoding(output_mode="one_hot")}): a tensor of shape
 * {@code S} becomes {@code S + (numClasses,)}, for labels of samples ({@code ()}) or of batches ({@code (N,)}).
 */
public final class OneHot implements UnaryOperator<Tensor> {
    private final int numClasses;

    /**
     * One-hot vectors of {@code numClasses} entries.
     *
     * @param numClasses the vector length, at least 1
     */
    public OneHot(int numClasses) {
        if (numClasses < 1) {
            throw new IllegalArgumentException("one-hot needs at least one class, got " + numClasses);
        }
        this.numClasses = numClasses;
    }

    /**
     * @throws IllegalArgumentException naming the first label that is not an integer in {@code [0, numClasses)}
     */
    @Override
    public Tensor apply(Tensor labels) {
        float[] out = new float[Math.multiplyExact(labels.size(), numClasses)];
        for (int i = 0; i < labels.size(); i++) {
            float v = labels.get(i);
            if (v != Math.rint(v)) {
                throw new IllegalArgumentException("label " + v + " at index " + i + " is not an integer class index");
            }
            if (v < 0 || v >= numClasses) {
                throw new IllegalArgumentException("label " + (long) v + " at index " + i + " is outside [0, "
                        + numClasses + ")");
            }
            out[i * numClasses + (int) v] = 1f;
        }
        int[] dims = Arrays.copyOf(labels.shape().dims(), labels.shape().rank() + 1);
        dims[dims.length - 1] = numClasses;
        return Tensor.wrap(out, 0, Shape.of(dims));
    }
}
