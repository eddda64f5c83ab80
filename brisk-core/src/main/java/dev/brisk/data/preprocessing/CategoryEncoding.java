package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * Keras' {@code CategoryEncoding(num_tokens, output_mode)}: integer category indexes in {@code [0, numTokens)} to
 * vectors of {@code numTokens} floats. {@code ONE_HOT} encodes every index ({@code S} becomes
 * {@code S + (numTokens)}; a last axis of 1 is replaced, as Keras does); {@code MULTI_HOT} and {@code COUNT}
 * encode the indexes along the last axis together ({@code S + (k)} becomes {@code S + (numTokens)}, a sample's
 * {@code (k)} indexes one vector): 1 where an index occurs, or how often it does. An index outside the range is
 * an error, as in Keras. Not here: Keras' {@code count_weights} and sparse outputs.
 */
public final class CategoryEncoding implements UnaryOperator<Tensor> {
    /** Keras' {@code output_mode}. */
    public enum Mode {
        /** One vector per index. */
        ONE_HOT,
        /** One vector per last axis: 1 where an index occurs. */
        MULTI_HOT,
        /** One vector per last axis: how often each index occurs. */
        COUNT
    }

    private final int numTokens;
    private final Mode mode;

    /**
     * An encoding of {@code numTokens} categories.
     *
     * @param numTokens the number of categories, at least 1
     * @param mode Keras' output mode
     */
    public CategoryEncoding(int numTokens, Mode mode) {
        if (numTokens < 1) {
            throw new IllegalArgumentException("CategoryEncoding needs at least one token, got " + numTokens);
        }
        this.numTokens = numTokens;
        this.mode = java.util.Objects.requireNonNull(mode, "mode");
    }

    /**
     * @throws IllegalArgumentException naming the first value that is not an integer in {@code [0, numTokens)}
     */
    @Override
    public Tensor apply(Tensor indexes) {
        int[] dims = indexes.shape().dims();
        int group;
        int[] outDims;
        if (mode == Mode.ONE_HOT) {
            group = 1;
            boolean replaceLast = dims.length > 0 && dims[dims.length - 1] == 1;
            outDims = Arrays.copyOf(dims, replaceLast ? dims.length : dims.length + 1);
        } else {
            group = dims.length == 0 ? 1 : dims[dims.length - 1];
            outDims = dims.length == 0 ? new int[1] : dims.clone();
        }
        outDims[outDims.length - 1] = numTokens;
        int vectors = group == 0 ? 0 : indexes.size() / group;
        float[] out = new float[Math.multiplyExact(Math.max(vectors, 1), numTokens)];
        for (int i = 0; i < indexes.size(); i++) {
            long v = IntegerValues.at(indexes, i, "CategoryEncoding");
            if (v < 0 || v >= numTokens) {
                throw new IllegalArgumentException("CategoryEncoding: index " + v + " at position " + i
                        + " is outside [0, " + numTokens + ")");
            }
            int at = (i / group) * numTokens + (int) v;
            out[at] = mode == Mode.COUNT ? out[at] + 1 : 1f;
        }
        return Tensor.wrap(out, 0, Shape.of(outDims));
    }
}
