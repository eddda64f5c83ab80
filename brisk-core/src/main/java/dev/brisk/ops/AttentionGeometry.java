package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * The sizes of an ATTENTION: {@code batch} entries of {@code heads} heads, {@code queries} query rows against
 * {@code keys} keys of depth {@code depth}, values of depth {@code valueDepth}. Queries are stored
 * {@code [batch, queries, heads, depth]}, keys {@code [batch, keys, heads, depth]}, values and the output likewise
 * with {@code valueDepth}, the log-sum-exp {@code [batch, heads, queries]}; an additive mask is
 * {@code [batch, maskRows, keys]} with {@code maskRows} the query count or 1 (one row for every query), or absent.
 *
 * @param batch the batch entries
 * @param queries the query length {@code T}
 * @param keys the key length {@code S}
 * @param heads the heads {@code H}
 * @param depth the query and key depth {@code D}
 * @param valueDepth the value depth {@code Dv}
 * @param causal whether query row {@code i} attends only to keys {@code 0 .. i}
 * @param maskRows rows of the additive mask per batch entry ({@code queries} or 1), or 0 without a mask
 */
public record AttentionGeometry(int batch, int queries, int keys, int heads, int depth, int valueDepth,
                                boolean causal, int maskRows) {
    /**
     * The geometry of an ATTENTION node.
     *
     * @param attention the node
     * @return its sizes
     */
    public static AttentionGeometry of(Node attention) {
        Shape q = attention.input(0).shape();
        Shape v = attention.input(2).shape();
        int maskRows = attention.inputs().size() > 3 ? attention.input(3).shape().dim(1) : 0;
        return new AttentionGeometry(q.dim(0), q.dim(1), v.dim(1), q.dim(2), q.dim(3), v.dim(3),
                attention.attrs(AttentionAttrs.class).causal(), maskRows);
    }

    /**
     * How many keys query row {@code row} attends to: the first {@code min(row + 1, keys)} when causal, else all.
     *
     * @param row the query row
     * @return the keys scored for it
     */
    public int keysOf(int row) {
        return causal ? Math.min(row + 1, keys) : keys;
    }

    /**
     * Elements of the queries (and of their gradient).
     *
     * @return {@code batch queries heads depth}
     */
    public int querySize() {
        return batch * queries * heads * depth;
    }

    /**
     * Elements of the keys (and of their gradient).
     *
     * @return {@code batch keys heads depth}
     */
    public int keySize() {
        return batch * keys * heads * depth;
    }
}
