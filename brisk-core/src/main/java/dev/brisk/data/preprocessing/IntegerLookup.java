package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Keras' {@code IntegerLookup}: integer values (ids, codes, years) to contiguous INT32 indexes, for an
 * {@code Embedding} or {@link CategoryEncoding}. The indexes are laid out as Keras lays them out: the mask token
 * (if any) at 0, then {@code numOovIndices} out-of-vocabulary indexes, then the vocabulary. With Keras' defaults
 * (one out-of-vocabulary index, no mask token) a value not in the vocabulary is 0 and {@code vocabulary[i]} is
 * {@code i + 1}; with a mask token, the mask token is 0, an unknown value 1 and {@code vocabulary[i]} is
 * {@code i + 2}. With {@code k > 1} out-of-vocabulary indexes an unknown value {@code v} goes to the
 * {@code floorMod(v, k)}-th of them (Keras' default {@code oov_method="floormod"}) or to its FarmHash bin
 * ({@code "farmhash"}, as {@link Hashing}); with none, an unknown value is an error. {@link #adapt} orders the
 * vocabulary as Keras does: by count, most frequent first, ties by value, largest first. {@link #inverse} is Keras'
 * {@code invert=True}.
 */
public final class IntegerLookup implements UnaryOperator<Tensor> {
    /** Keras' {@code oov_method}: how an unknown value picks one of several out-of-vocabulary indexes. */
    public enum OovMethod {
        /** {@code floorMod(value, numOovIndices)}, Keras' default. */
        FLOORMOD,
        /** The FarmHash Fingerprint64 of the value's decimal string, modulo {@code numOovIndices}. */
        FARMHASH
    }

    /** Keras' default {@code oov_token}, what {@link #inverse} gives for an out-of-vocabulary index. */
    public static final long OOV_TOKEN = -1;

    private final long[] vocabulary;
    private final Long maskToken;
    private final int numOovIndices;
    private final OovMethod oovMethod;
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
        this(vocabulary.clone(), maskToken, 1, OovMethod.FLOORMOD);
    }

    private IntegerLookup(long[] vocabulary, Long maskToken, int numOovIndices, OovMethod oovMethod) {
        if (numOovIndices < 0) {
            throw new IllegalArgumentException("IntegerLookup needs num_oov_indices of at least 0, got "
                    + numOovIndices);
        }
        this.vocabulary = vocabulary;
        this.maskToken = maskToken;
        this.numOovIndices = numOovIndices;
        this.oovMethod = Objects.requireNonNull(oovMethod, "oovMethod");
        int start = tokenStart();
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
        return adapt(data, maxTokens, 1);
    }

    /**
     * Learns the vocabulary from data with {@code numOovIndices} out-of-vocabulary indexes, which count toward
     * {@code maxTokens} as in Keras.
     *
     * @param data the values: samples or batches
     * @param maxTokens the most indexes, more than {@code numOovIndices}, or 0 for no limit
     * @param numOovIndices Keras' {@code num_oov_indices}, at least 0
     * @return the lookup
     */
    public static IntegerLookup adapt(Iterable<Tensor> data, int maxTokens, int numOovIndices) {
        if (maxTokens != 0 && maxTokens <= Math.max(numOovIndices, 1)) {
            throw new IllegalArgumentException("IntegerLookup needs maxTokens of at least "
                    + (Math.max(numOovIndices, 1) + 1) + " (or 0), got " + maxTokens);
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
        int keep = maxTokens == 0 ? sorted.size() : Math.min(sorted.size(), maxTokens - numOovIndices);
        long[] vocabulary = new long[keep];
        for (int i = 0; i < keep; i++) {
            vocabulary[i] = sorted.get(i).getKey();
        }
        return new IntegerLookup(vocabulary, null, numOovIndices, OovMethod.FLOORMOD);
    }

    /**
     * This lookup with {@code k} out-of-vocabulary indexes (Keras' {@code num_oov_indices}), the vocabulary moved
     * up after them; unknown values spread over them by {@code floorMod(value, k)}.
     *
     * @param k the number of out-of-vocabulary indexes: 0 (an unknown value is an error), 1 (the default) or more
     * @return the new lookup
     */
    public IntegerLookup numOovIndices(int k) {
        return new IntegerLookup(vocabulary, maskToken, k, oovMethod);
    }

    /**
     * This lookup with another rule for picking among several out-of-vocabulary indexes (Keras' {@code oov_method}).
     *
     * @param method the rule
     * @return the new lookup
     */
    public IntegerLookup oovMethod(OovMethod method) {
        return new IntegerLookup(vocabulary, maskToken, numOovIndices, method);
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
     * The number of indexes: the vocabulary, the out-of-vocabulary indexes and the mask token if any.
     *
     * @return the index count (an {@code Embedding}'s input dimension)
     */
    public int size() {
        return vocabulary.length + tokenStart();
    }

    /**
     * @throws IllegalArgumentException naming a value outside the vocabulary when there are no out-of-vocabulary
     *     indexes, or a float that is not an integer
     */
    @Override
    public Tensor apply(Tensor values) {
        int[] out = new int[values.size()];
        int oovStart = maskToken == null ? 0 : 1;
        Hashing hashing = oovMethod == OovMethod.FARMHASH && numOovIndices > 1 ? new Hashing(numOovIndices) : null;
        for (int i = 0; i < out.length; i++) {
            long v = IntegerValues.at(values, i, "IntegerLookup");
            Integer known = index.get(v);
            if (maskToken != null && v == maskToken) {
                out[i] = 0;
            } else if (known != null) {
                out[i] = known;
            } else if (numOovIndices == 0) {
                throw new IllegalArgumentException("IntegerLookup: value " + v + " at index " + i + " is not in the "
                        + "vocabulary and there are no out-of-vocabulary indexes (num_oov_indices=0)");
            } else {
                int slot = numOovIndices == 1 ? 0
                        : hashing != null ? hashing.bin(v) : (int) Math.floorMod(v, (long) numOovIndices);
                out[i] = oovStart + slot;
            }
        }
        return Tensor.ofInts(out, values.shape().dims());
    }

    /**
     * Keras' {@code IntegerLookup(invert=True)} over the same vocabulary: indexes back to values, an INT32 tensor of
     * the same shape. The mask index gives the mask token, and an out-of-vocabulary index or one outside
     * {@code [0, size())} gives {@link #OOV_TOKEN}, as in Keras.
     *
     * @return the inverse lookup
     * @throws IllegalArgumentException naming a vocabulary value or mask token beyond INT32
     */
    public UnaryOperator<Tensor> inverse() {
        long[] byIndex = new long[size()];
        java.util.Arrays.fill(byIndex, OOV_TOKEN);
        if (maskToken != null) {
            byIndex[0] = maskToken;
        }
        System.arraycopy(vocabulary, 0, byIndex, tokenStart(), vocabulary.length);
        for (long v : byIndex) {
            if (v != (int) v) {
                throw new IllegalArgumentException("IntegerLookup: value " + v + " does not fit the INT32 tensor the "
                        + "inverse lookup gives");
            }
        }
        return indexes -> {
            int[] out = new int[indexes.size()];
            for (int i = 0; i < out.length; i++) {
                long at = IntegerValues.at(indexes, i, "IntegerLookup inverse");
                out[i] = at >= 0 && at < byIndex.length ? (int) byIndex[(int) at] : (int) OOV_TOKEN;
            }
            return Tensor.ofInts(out, indexes.shape().dims());
        };
    }

    /** The first vocabulary index: after the mask token (if any) and the out-of-vocabulary indexes. */
    private int tokenStart() {
        return (maskToken == null ? 0 : 1) + numOovIndices;
    }
}
