package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Keras' {@code IntegerLookup}: integer values (ids, codes, years) to contiguous INT32 indexes, for an
 * {@code Embedding} or {@link CategoryEncoding}. With Keras' defaults (one out-of-vocabulary index, no mask
 * token) a value not in the vocabulary is 0 and {@code vocabulary[i]} is {@code i + 1}; with a mask token, the
 * mask token is 0, an unknown value 1 and {@code vocabulary[i]} is {@code i + 2}. {@link #adapt} orders the
 * vocabulary as Keras does: by count, most frequent first, ties by value, largest first. Not here: more than one
 * out-of-vocabulary index (Keras hashes values into them) and {@code invert}.
 */
public final class IntegerLookup implements UnaryOperator<Tensor> {
    private final long[] vocabulary;
    private final Long maskToken;
    private final Map<Long, Integer> index = new HashMap<>();

    /**
     * A lookup of a fixed vocabulary, Keras' defaults (one out-of-vocabulary index, no mask token).
     *
     * @param vocabulary the values, each once
     */
    public IntegerLookup(long... vocabulary) {
        this(vocabulary, null);
    }

    /**
     * A lookup with a mask token (Keras' {@code mask_token}, for padding), which is index 0.
     *
     * @param vocabulary the values, each once, the mask token not among them
     * @param maskToken the mask token, or null for none
     */
    public IntegerLookup(long[] vocabulary, Long maskToken) {
        this.vocabulary = vocabulary.clone();
        this.maskToken = maskToken;
        int start = maskToken == null ? 1 : 2;
        for (int i = 0; i < vocabulary.length; i++) {
            if (index.put(vocabulary[i], start + i) != null || maskToken != null && vocabulary[i] == maskToken) {
                throw new IllegalArgumentException("IntegerLookup: vocabulary value " + vocabulary[i] + " appears "
                        + "twice or is the mask token");
            }
        }
    }

    /**
     * Learns the vocabulary from data (Keras' {@code adapt}): the distinct values, most frequent first, ties by
     * value, largest first; at most {@code maxTokens} indexes in all, counting the out-of-vocabulary index.
     *
     * @param data the values: samples or batches
     * @param maxTokens the most indexes, at least 2, or 0 for no limit
     * @return the lookup
     */
    public static IntegerLookup adapt(Iterable<Tensor> data, int maxTokens) {
        if (maxTokens != 0 && maxTokens < 2) {
            throw new IllegalArgumentException("IntegerLookup needs maxTokens of at least 2 (or 0), got " + maxTokens);
        }
        Map<Long, Long> counts = new HashMap<>();
        for (Tensor t : data) {
            for (int i = 0; i < t.size(); i++) {
                counts.merge(IntegerValues.at(t, i, "IntegerLookup"), 1L, Long::sum);
            }
        }
        List<Map.Entry<Long, Long>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort((a, b) -> a.getValue().equals(b.getValue()) ? Long.compare(b.getKey(), a.getKey())
                : Long.compare(b.getValue(), a.getValue()));
        int keep = maxTokens == 0 ? sorted.size() : Math.min(sorted.size(), maxTokens - 1);
        long[] vocabulary = new long[keep];
        for (int i = 0; i < keep; i++) {
            vocabulary[i] = sorted.get(i).getKey();
        }
        return new IntegerLookup(vocabulary);
    }

    /**
     * The vocabulary, without the mask and out-of-vocabulary entries.
     *
     * @return a copy of the values in index order
     */
    public long[] vocabulary() {
        return vocabulary.clone();
    }

    /**
     * The number of indexes: the vocabulary, the out-of-vocabulary index and the mask token if any.
     *
     * @return the index count (an {@code Embedding}'s input dimension)
     */
    public int size() {
        return vocabulary.length + (maskToken == null ? 1 : 2);
    }

    @Override
    public Tensor apply(Tensor values) {
        int[] out = new int[values.size()];
        int oov = maskToken == null ? 0 : 1;
        for (int i = 0; i < out.length; i++) {
            long v = IntegerValues.at(values, i, "IntegerLookup");
            out[i] = maskToken != null && v == maskToken ? 0 : index.getOrDefault(v, oov);
        }
        return Tensor.ofInts(out, values.shape().dims());
    }
}
