package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.function.UnaryOperator;

/**
 * A function of tensors that computes each element from the element at the same place alone (Keras' rescaling and
 * normalization layers), so it can also overwrite its input. {@link Pipeline#batch} followed by a
 * {@code map(Batch.features(t))} of such a function applies it in place to the batch just stacked, which no one
 * else has seen yet, instead of allocating a second batch.
 */
public interface ElementwiseTransform extends UnaryOperator<Tensor> {

    /**
     * Overwrites {@code x} with {@code apply(x)}, bit for bit.
     *
     * @param x the tensor to transform in place
     */
    void applyInPlace(Tensor x);
}
