package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * Multi-head scaled dot-product attention (Keras 3's {@code MultiHeadAttention}) over sequences: inputs are the
 * query {@code [batch, T, dq]}, the value {@code [batch, S, dv]}, optionally the key {@code [batch, S, dk]} (the
 * value when absent) and, for a layer made with an attention mask input, last, a mask {@code [batch, T, S]} (1 where
 * a query position may attend to a key position, 0 where not). The output is {@code [batch, T, dq]}.
 *
 * <p>Per head {@code h}: {@code softmax(q_h k_h^T / sqrt(keyDim) + mask) v_h}, with {@code q = query Wq + bq} and
 * so on, then the heads' results projected by the output kernel. Weights have Keras 3's names and layouts, so they
 * can be exchanged with it: {@code query/kernel [dq, numHeads, keyDim]}, {@code query/bias [numHeads, keyDim]},
 * {@code key/kernel [dk, numHeads, keyDim]}, {@code key/bias}, {@code value/kernel [dv, numHeads, valueDim]},
 * {@code value/bias [numHeads, valueDim]}, {@code attention_output/kernel [numHeads, valueDim, dq]} and
 * {@code attention_output/bias [dq]}; kernels Glorot uniform with Keras' fans for these shapes, biases zeros.
 *
 * <p>Projections are one 2-D matrix product over all {@code batch * T} rows each (a reshape, no copy); the heads
 * then go to one fused ATTENTION op ({@link Graph#attention}) that reads them in place and never stores the scores.
 * Masked scores get {@code -1e9} added before the softmax, as Keras does, so their probabilities are exactly 0.
 * Dropout, in training, drops attention probabilities: a layer with dropout keeps the unfused graph in training
 * (heads split by permutes, scores and weighted values as batched products over {@code batch * numHeads} entries),
 * since it needs the probabilities themselves.
 */
public final class MultiHeadAttention extends Layer {
    /** What Keras adds to a masked score in float32. */
    private static final float MASKED = -1e9f;

    private final int numHeads;
    private final int keyDim;
    private final int valueDim;
    private final float dropout;
    private final boolean useBias;
    private final boolean useCausalMask;
    private final boolean attentionMaskInput;
    private Tensor maskOnes;
    /** The layer's own seed, mixed with each step's seed: Keras' {@code seed} (drawn from RandomSeed if not set). */
    private volatile long salt = RandomSeed.next();
    private Variable queryKernel;
    private Variable queryBias;
    private Variable keyKernel;
    private Variable keyBias;
    private Variable valueKernel;
    private Variable valueBias;
    private Variable outputKernel;
    private Variable outputBias;
    /**
     * The causal mask's additive scores {@code [T, S]} for the last lengths called with: made once per query and
     * value length, so a model with an open sequence length gets a mask of each batch's own length.
     */
    private volatile Tensor causal;

    /**
     * Multi-head attention.
     *
     * @param numHeads the number of heads
     * @param keyDim the size of each head's query and key
     * @param valueDim the size of each head's value (Keras' default: {@code keyDim})
     * @param dropout the fraction of attention probabilities dropped in training
     * @param useBias whether the projections add biases
     * @param useCausalMask whether position {@code i} of the query may attend only to key positions up to {@code i}
     * @param attentionMaskInput whether the layer takes an attention mask as its last input
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException for a size under 1 or a dropout rate outside {@code [0, 1)}
     */
    public MultiHeadAttention(int numHeads, int keyDim, int valueDim, float dropout, boolean useBias,
                              boolean useCausalMask, boolean attentionMaskInput, String name) {
        super(name);
        if (numHeads < 1 || keyDim < 1 || valueDim < 1) {
            throw new IllegalArgumentException("MultiHeadAttention needs numHeads, keyDim and valueDim >= 1, got "
                    + numHeads + ", " + keyDim + ", " + valueDim);
        }
        if (!(dropout >= 0 && dropout < 1)) {
            throw new IllegalArgumentException("MultiHeadAttention dropout must be in [0, 1), got " + dropout);
        }
        this.numHeads = numHeads;
        this.keyDim = keyDim;
        this.valueDim = valueDim;
        this.dropout = dropout;
        this.useBias = useBias;
        this.useCausalMask = useCausalMask;
        this.attentionMaskInput = attentionMaskInput;
    }

    /**
     * The number of heads.
     *
     * @return the heads
     */
    public int numHeads() {
        return numHeads;
    }

    /**
     * The size of each head's query and key.
     *
     * @return the key size
     */
    public int keyDim() {
        return keyDim;
    }

    /**
     * The size of each head's value.
     *
     * @return the value size
     */
    public int valueDim() {
        return valueDim;
    }

    /**
     * Whether each query position attends only to key positions up to its own (Keras' call argument
     * {@code use_causal_mask}, fixed per layer in Brisk).
     *
     * @return true for a causal mask
     */
    public boolean useCausalMask() {
        return useCausalMask;
    }

    /**
     * Whether the layer takes an attention mask as its last input (Keras' call argument {@code attention_mask}).
     *
     * @return true when the last input is the attention mask
     */
    public boolean attentionMaskInput() {
        return attentionMaskInput;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        int sequences = inputShapes.size() - (attentionMaskInput ? 1 : 0);
        if (sequences < 2 || sequences > 3) {
            throw new IllegalArgumentException("MultiHeadAttention takes (query, value" + (attentionMaskInput
                    ? ", mask)" : ")") + " or (query, value, key" + (attentionMaskInput ? ", mask)" : ")")
                    + ", got " + inputShapes.size() + " inputs");
        }
        for (int i = 0; i < sequences; i++) {
            if (inputShapes.get(i).rank() != 2) {
                throw new IllegalArgumentException("MultiHeadAttention expects sequences of rank 3 (batch, time, "
                        + "features), got " + withBatch(inputShapes.get(i)) + " for its "
                        + List.of("query", "value", "key").get(i));
            }
        }
        Shape query = inputShapes.get(0);
        Shape value = inputShapes.get(1);
        if (sequences == 3 && inputShapes.get(2).dim(0) != value.dim(0)) {
            throw new IllegalArgumentException("MultiHeadAttention key " + withBatch(inputShapes.get(2))
                    + " and value " + withBatch(value) + " differ in length");
        }
        if (attentionMaskInput) {
            Shape mask = inputShapes.get(sequences);
            if (!mask.equals(Shape.of(query.dim(0), value.dim(0)))) {
                throw new IllegalArgumentException("MultiHeadAttention attention mask must be (None, "
                        + query.dim(0) + ", " + value.dim(0) + ") for query " + withBatch(query) + " and value "
                        + withBatch(value) + ", got " + withBatch(mask));
            }
        }
        return query;
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int sequences = inputShapes.size() - (attentionMaskInput ? 1 : 0);
        int dq = inputShapes.get(0).dim(1);
        int dv = inputShapes.get(1).dim(1);
        int dk = sequences == 3 ? inputShapes.get(2).dim(1) : dv;
        Initializer glorot = Initializer.glorotUniform();
        // Keras' fans of a kernel of rank 3: the leading axis is a receptive field multiplying the last two.
        queryKernel = addWeight("query/kernel", Shape.of(dq, numHeads, keyDim), glorot, true, null,
                dq * numHeads, dq * keyDim);
        if (useBias) {
            queryBias = addWeight("query/bias", Shape.of(numHeads, keyDim), Initializer.zeros(), true, null, 0, 0);
        }
        keyKernel = addWeight("key/kernel", Shape.of(dk, numHeads, keyDim), glorot, true, null, dk * numHeads,
                dk * keyDim);
        if (useBias) {
            keyBias = addWeight("key/bias", Shape.of(numHeads, keyDim), Initializer.zeros(), true, null, 0, 0);
        }
        valueKernel = addWeight("value/kernel", Shape.of(dv, numHeads, valueDim), glorot, true, null,
                dv * numHeads, dv * valueDim);
        if (useBias) {
            valueBias = addWeight("value/bias", Shape.of(numHeads, valueDim), Initializer.zeros(), true, null, 0, 0);
        }
        outputKernel = addWeight("attention_output/kernel", Shape.of(numHeads, valueDim, dq), glorot, true, null,
                numHeads * valueDim, numHeads * dq);
        if (useBias) {
            outputBias = addWeight("attention_output/bias", Shape.of(dq), Initializer.zeros(), true, null, 0, 0);
        }
    }

    /** The causal mask's scores for a query of {@code t} steps and a value of {@code s}: key j is hidden from i < j. */
    private Tensor causalMask(int t, int s) {
        Tensor c = causal;
        if (c != null && c.shape().dim(0) == t && c.shape().dim(1) == s) {
            return c;
        }
        c = Tensor.zeros(t, s);
        for (int i = 0; i < t; i++) {
            for (int j = i + 1; j < s; j++) {
                c.set(i * s + j, MASKED);
            }
        }
        causal = c;
        return c;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        int sequences = inputs.size() - (attentionMaskInput ? 1 : 0);
        Node query = inputs.get(0);
        Node value = inputs.get(1);
        Node key = sequences == 3 ? inputs.get(2) : value;
        int batch = query.shape().dim(0);
        int t = query.shape().dim(1);
        int s = value.shape().dim(1);
        // Keras scales the projected query, before the scores.
        Node q = project(g, query, queryKernel, queryBias, keyDim, (float) (1 / Math.sqrt(keyDim)));
        Node k = project(g, key, keyKernel, keyBias, keyDim, 1f);
        Node v = project(g, value, valueKernel, valueBias, valueDim, 1f);
        Node mask = attentionMaskInput ? inputs.get(sequences) : null;
        // Keras' implicit masks: padding masks of the query (rows), the value and the key (columns) are ANDed with
        // the attention mask, as products of 0/1 floats. A mask of columns alone stays [batch, 1, s].
        Node queryMask = g.maskOf(query);
        Node columnMask = g.maskOf(value);
        Node keyMask = key == value ? null : g.maskOf(key);
        if (keyMask != null) {
            columnMask = columnMask == null ? keyMask : g.mul(columnMask, keyMask);
        }
        if (queryMask != null) {
            Node rows = g.reshape(queryMask, Shape.of(batch, t, 1));
            mask = mask == null ? g.mul(rows, g.constant(onesOf(batch, t, s))) : g.mul(mask, rows);
        }
        if (columnMask != null) {
            Node columns = g.reshape(columnMask, Shape.of(batch, 1, s));
            mask = mask == null ? columns : g.mul(mask, columns);
        }
        Node additive = mask == null ? null : g.scale(g.addScalar(mask, -1f), -MASKED);
        Node attended = ctx.training() && dropout > 0
                ? probabilitiesTimesValues(g, q, k, v, additive, ctx, batch, t, s)
                : fused(g, q, k, v, additive, batch, t, s);
        Node rows = g.reshape(attended, Shape.of(batch * t, numHeads * valueDim));
        int dq = query.shape().dim(2);
        Node out = g.fusing(() -> {
            Node y = g.matmul(rows, g.reshape(g.variable(outputKernel), Shape.of(numHeads * valueDim, dq)));
            return useBias ? g.add(y, g.variable(outputBias)) : y;
        });
        Node y = g.reshape(out, Shape.of(batch, t, dq));
        if (queryMask != null) {
            g.setMask(y, queryMask);
        }
        return y;
    }

    /**
     * The heads' attended values {@code [batch, t, heads, valueDim]} from one fused ATTENTION, which reads the
     * projections in place and keeps no probabilities. With a mask as well, the causal mask joins it as -1e9 added
     * to the later keys' scores, as the unfused graph adds it, so that a row the two masks hide together still
     * gets Keras' uniform probabilities; alone it is the op's causal flag, whose kernel skips those scores.
     */
    private Node fused(Graph g, Node q, Node k, Node v, Node additive, int batch, int t, int s) {
        boolean causalFlag = useCausalMask && additive == null;
        if (useCausalMask && additive != null) {
            additive = g.add(additive, g.constant(causalMask(t, s)));
        }
        return g.attention(g.reshape(q, Shape.of(batch, t, numHeads, keyDim)),
                g.reshape(k, Shape.of(batch, s, numHeads, keyDim)), g.reshape(v, Shape.of(batch, s, numHeads,
                        valueDim)), additive, causalFlag);
    }

    /**
     * The heads' attended values {@code [batch, t, heads, valueDim]} from the probabilities themselves, which
     * dropout in training needs: heads split by permutes, scores and weighted values as batched products.
     */
    private Node probabilitiesTimesValues(Graph g, Node qRows, Node kRows, Node vRows, Node additive,
                                          CallContext ctx, int batch, int t, int s) {
        Node q = heads(g, qRows, batch, t, keyDim);
        Node k = heads(g, kRows, batch, s, keyDim);
        Node v = heads(g, vRows, batch, s, valueDim);
        Node scores = g.batchMatmul(q, k, false, true);
        if (useCausalMask) {
            scores = g.add(scores, g.constant(causalMask(t, s)));
        }
        if (additive != null) {
            scores = g.add(scores, g.reshape(additive, Shape.of(batch, 1, additive.shape().dim(1), s)));
        }
        Node probs = g.dropout(g.softmax(scores), dropout, ctx.seed(), salt);
        return g.permute(g.batchMatmul(probs, v, false, false), 0, 2, 1, 3);
    }

    /** Ones {@code [batch, t, s]}, kept for the shape last asked for, to broadcast a row or column mask to. */
    private Tensor onesOf(int batch, int t, int s) {
        Shape shape = Shape.of(batch, t, s);
        if (maskOnes == null || !maskOnes.shape().equals(shape)) {
            maskOnes = Tensor.zeros(shape);
            for (int i = 0; i < maskOnes.size(); i++) {
                maskOnes.set(i, 1f);
            }
        }
        return maskOnes;
    }

    /** {@code x Wx + bx} over all rows of {@code x}, times {@code factor}: {@code [batch * time, heads * depth]}. */
    private Node project(Graph g, Node x, Variable kernel, Variable bias, int depth, float factor) {
        Shape xs = x.shape();
        int width = numHeads * depth;
        Node rows = g.reshape(x, Shape.of(xs.dim(0) * xs.dim(1), xs.dim(2)));
        Node y = g.fusing(() -> {
            Node p = g.matmul(rows, g.reshape(g.variable(kernel), Shape.of(xs.dim(2), width)));
            return bias != null ? g.add(p, g.reshape(g.variable(bias), Shape.of(width))) : p;
        });
        return factor == 1f ? y : g.scale(y, factor);
    }

    /** Rows {@code [batch * time, heads * depth]} as {@code [batch, heads, time, depth]}. */
    private Node heads(Graph g, Node rows, int batch, int time, int depth) {
        return g.permute(g.reshape(rows, Shape.of(batch, time, numHeads, depth)), 0, 2, 1, 3);
    }

    /**
     * The query projection's kernel.
     *
     * @return {@code [dq, numHeads, keyDim]}; null before the layer is built
     */
    public Variable queryKernel() {
        return queryKernel;
    }

    /**
     * The query projection's bias.
     *
     * @return {@code [numHeads, keyDim]}; null without biases or before the layer is built
     */
    public Variable queryBias() {
        return queryBias;
    }

    /**
     * The key projection's kernel.
     *
     * @return {@code [dk, numHeads, keyDim]}; null before the layer is built
     */
    public Variable keyKernel() {
        return keyKernel;
    }

    /**
     * The key projection's bias.
     *
     * @return {@code [numHeads, keyDim]}; null without biases or before the layer is built
     */
    public Variable keyBias() {
        return keyBias;
    }

    /**
     * The value projection's kernel.
     *
     * @return {@code [dv, numHeads, valueDim]}; null before the layer is built
     */
    public Variable valueKernel() {
        return valueKernel;
    }

    /**
     * The value projection's bias.
     *
     * @return {@code [numHeads, valueDim]}; null without biases or before the layer is built
     */
    public Variable valueBias() {
        return valueBias;
    }

    /**
     * The output projection's kernel.
     *
     * @return {@code [numHeads, valueDim, dq]}; null before the layer is built
     */
    public Variable outputKernel() {
        return outputKernel;
    }

    /**
     * The output projection's bias.
     *
     * @return {@code [dq]}; null without biases or before the layer is built
     */
    public Variable outputBias() {
        return outputBias;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("num_heads", numHeads);
        c.put("key_dim", keyDim);
        c.put("value_dim", valueDim);
        c.put("dropout", dropout);
        c.put("use_bias", useBias);
        c.put("output_shape", null);
        c.put("attention_axes", null);
        c.put("kernel_initializer", Initializer.glorotUniform());
        c.put("bias_initializer", Initializer.zeros());
        c.put("seed", salt);
        // useCausalMask and attentionMaskInput are call arguments in Keras (use_causal_mask, attention_mask), so a
        // saved model records them with each call, not here.
        return c;
    }

    @Override
    public java.util.OptionalLong seed() {
        return java.util.OptionalLong.of(salt);
    }

    @Override
    public MultiHeadAttention setSeed(long seed) {
        this.salt = seed;
        return this;
    }
}
