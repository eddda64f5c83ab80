package dev.brisk.ops;

/**
 * Whether an ATTENTION node (and its gradient) hides later keys from each query row.
 *
 * @param causal true when query row {@code i} attends only to keys {@code 0 .. i}
 */
public record AttentionAttrs(boolean causal) implements Attrs {
    /**
     * How many (query, key) pairs one batch entry and head scores: all {@code t s}, or without the keys a causal
     * node hides, {@code min(i + 1, s)} for row {@code i}.
     *
     * @param t the query length
     * @param s the key length
     * @return the pairs
     */
    public long scoredPairs(int t, int s) {
        if (!causal) {
            return (long) t * s;
        }
        long pairs = 0;
        for (int i = 0; i < t; i++) {
            pairs += Math.min(i + 1, s);
        }
        return pairs;
    }

    /**
     * The multiply-adds, counted as two FLOPs each, of an ATTENTION's products ({@code q k^T}, then the probabilities
     * times {@code v}) over the pairs it scores, or of its gradient's five ({@code q k^T} again, {@code dO v^T},
     * {@code P^T dO}, {@code dS k}, {@code dS^T q}), plus a few operations per pair for the softmax.
     *
     * @param q the queries' shape {@code [B, T, H, D]}
     * @param s the key length
     * @param valueDepth the values' depth {@code Dv}
     * @param gradient true for ATTENTION_GRAD
     * @return the FLOPs
     */
    public long flops(dev.brisk.tensor.Shape q, int s, int valueDepth, boolean gradient) {
        long pairs = scoredPairs(q.dim(1), s) * q.dim(0) * q.dim(2);
        int d = q.dim(3);
        return gradient ? pairs * (2L * (3L * d + 2L * valueDepth) + 4) : pairs * (2L * (d + valueDepth) + 5);
    }
}
