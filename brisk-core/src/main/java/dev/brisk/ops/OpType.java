package dev.brisk.ops;

/**
 * The primitive ops of Brisk's IR. Layers, losses and optimisers are compositions of these; each has shape
 * inference ({@link ShapeInference}), a kernel binding (exec) and a gradient rule (graph).
 */
public enum OpType {
    /** A value fed from outside at every step (a batch, a label vector, optimiser hyper-parameters). */
    INPUT,
    /** A long-lived tensor (weight, optimiser slot, moving statistic) bound to a {@link Variable}. */
    VARIABLE,
    /** A value fixed when the node is made. */
    CONSTANT,
    /** Elementwise function of one input ({@link UnaryAttrs}). */
    UNARY,
    /** Elementwise function of two inputs with broadcasting ({@link BinaryAttrs}). */
    BINARY,
    /** 2-D matrix product with optional transposes ({@link MatMulAttrs}). */
    MATMUL,
    /** Same elements, new shape (no copy). */
    RESHAPE,
    /** Joins its inputs along an axis ({@link AxisAttrs}: axis only). */
    CONCAT,
    /** A contiguous range along an axis ({@link AxisAttrs}: axis, start, length). */
    SLICE,
    /** Swaps the last two axes. */
    TRANSPOSE,
    /** Reduction over axes ({@link ReduceAttrs}). */
    REDUCE,
    /**
     * Batch statistics per channel (the last axis): a {@code [2, channels]} result, the mean over all other axes
     * and the biased variance about it, each summed in double (see {@code Kernels.batchNormStatistics}).
     */
    BATCH_NORM_STATS,
    /**
     * Batch normalization ({@link BatchNormAttrs}): inputs are {@code x}, the {@code [2, channels]} mean and variance
     * that normalize it, {@code gamma} and {@code beta}. In training mode the statistics must be BATCH_NORM_STATS of
     * {@code x}: the gradient with respect to {@code x} then takes their dependence on {@code x} into account, and
     * they themselves get none (nor do moving statistics in inference mode).
     */
    BATCH_NORM,
    /**
     * Backward of BATCH_NORM for its scale and offset: inputs are the upstream gradient, {@code x} and the
     * statistics; the result is {@code [2, channels]}: the gradient of {@code beta}, then that of {@code gamma}.
     */
    BATCH_NORM_PARAM_GRAD,
    /**
     * Backward of BATCH_NORM for {@code x}: inputs are the upstream gradient, {@code x}, the statistics,
     * {@code gamma} and the BATCH_NORM_PARAM_GRAD of the same gradient.
     */
    BATCH_NORM_GRAD,
    /** Repeats a tensor along broadcast axes to a larger shape. */
    BROADCAST_TO,
    /** Softmax or log-softmax over the last axis ({@link SoftmaxAttrs}). */
    SOFTMAX,
    /** Backward of SOFTMAX: inputs are the forward output and the upstream gradient. */
    SOFTMAX_GRAD,
    /** Picks one element per row: inputs are a {@code [rows, cols]} matrix and {@code [rows]} class indexes. */
    GATHER_ROWS,
    /** Backward of GATHER_ROWS: inputs are the upstream gradient {@code [rows]} and the indexes. */
    SCATTER_ROWS,
    /**
     * Softmax cross-entropy against class indexes, per row: inputs are logits {@code [rows, cols]} and
     * {@code [rows]} class indexes; the output is {@code [rows]}, {@code logsumexp(x[r]) - x[r, index[r]]}. Keeps the
     * row probabilities (its aux value, {@code [rows, cols]}) for its gradient.
     */
    SPARSE_SOFTMAX_XENT,
    /**
     * Backward of SPARSE_SOFTMAX_XENT: inputs are the upstream gradient {@code [rows]}, the class indexes and the
     * SPARSE_SOFTMAX_XENT node (whose probabilities it reads); {@code dx = dy[r] (p - onehot(index[r]))}.
     */
    SPARSE_SOFTMAX_XENT_GRAD,
    /** 2-D convolution, NHWC ({@link ConvAttrs}). */
    CONV2D,
    /** Gradient of CONV2D with respect to its input: inputs are dy and the kernel. */
    CONV2D_GRAD_INPUT,
    /** Gradient of CONV2D with respect to its kernel: inputs are x and dy. */
    CONV2D_GRAD_FILTER,
    /**
     * Max pooling, NHWC ({@link PoolAttrs}). Keeps which window cell each maximum came from (its aux value, shaped
     * like the output) for its gradient, so that the gradient need not read the pooled input again.
     */
    MAX_POOL,
    /** Backward of MAX_POOL: inputs are the MAX_POOL node (whose cells it reads) and dy. */
    MAX_POOL_GRAD,
    /** Average pooling, NHWC ({@link PoolAttrs}). */
    AVG_POOL,
    /** Backward of AVG_POOL: input is dy. */
    AVG_POOL_GRAD,
    /** Inverted dropout; inputs are x and a scalar seed; keeps its mask for the backward pass ({@link DropoutAttrs}). */
    DROPOUT,
    /** Backward of DROPOUT: inputs are dy and the DROPOUT node (whose mask it reads). */
    DROPOUT_GRAD,
    /** Copies its second input into the variable of its first (side effect). */
    ASSIGN,
    /** Fused optimiser step on a variable (side effect; {@link UpdateAttrs}). */
    UPDATE,
    /**
     * Batched matrix product {@code [..., m, k] x [..., k, n] -> [..., m, n]} with optional transposes of the last
     * two axes of either operand ({@link MatMulAttrs}): both operands have the same batch axes, or one of them is a
     * plain matrix used for every batch entry.
     */
    BATCH_MATMUL,
    /** Reorders the axes: output axis {@code i} is input axis {@code perm[i]} ({@link PermuteAttrs}). */
    PERMUTE,
    /**
     * Layer normalization over the last axis ({@link LayerNormAttrs}): inputs are {@code x}, {@code gamma} and
     * {@code beta}, each row normalized by its own mean and biased variance (summed in double).
     */
    LAYER_NORM,
    /**
     * Backward of LAYER_NORM for its scale and offset: inputs are the upstream gradient and {@code x}; the result
     * is {@code [2, channels]}: the gradient of {@code beta}, then that of {@code gamma}.
     */
    LAYER_NORM_PARAM_GRAD,
    /** Backward of LAYER_NORM for {@code x}: inputs are the upstream gradient, {@code x} and {@code gamma}. */
    LAYER_NORM_GRAD,
    /**
     * Embedding lookup: inputs are a {@code [vocab, dim]} float table and INT32 ids of any shape {@code [..]}; the
     * output {@code [.., dim]} holds row {@code ids[i]} of the table for each id. An id outside {@code [0, vocab)} is
     * an error naming the id and the vocabulary size.
     */
    EMBEDDING_LOOKUP,
    /**
     * Backward of EMBEDDING_LOOKUP with respect to the table: inputs are dy {@code [.., dim]} and the INT32 ids; the
     * output {@code [vocab, dim]} ({@link ShapeAttrs}) adds each dy row into the row of its id, in id order, so the
     * sums have the same bits on any number of threads.
     */
    EMBEDDING_GRAD,
    /** 1 where an INT32 input is not zero, else 0, as floats: the padding mask of {@code Embedding(maskZero)}. */
    NONZERO_MASK,
    /**
     * A recurrent layer over a whole sequence ({@link RecurrentAttrs}): inputs are {@code x [batch, steps, inputs]},
     * the kernel, the recurrent kernel and the bias (Keras' layouts, {@link RecurrentCell}), then optionally a mask
     * {@code [batch, steps]} and an initial state {@code [batch, states units]}; the output is every step's hidden
     * state or the last, with the final states appended to each row when they are returned
     * ({@link RecurrentAttrs#returnState}, output {@code [batch, width]}). Keeps what its gradient needs (gates, states) as its aux value
     * ({@link RecurrentGeometry}), which also serves its kernel as workspace.
     */
    RECURRENT_SEQUENCE,
    /**
     * Backward through time of RECURRENT_SEQUENCE: inputs are the upstream gradient, the RECURRENT_SEQUENCE node
     * (whose state it reads), its kernel and recurrent kernel, and its mask when it has one. The result is flat: the
     * input's gradient (when {@link RecurrentAttrs#inputGradient}), then the kernel's, the recurrent kernel's and
     * the bias's, then the initial state's when it is an input.
     */
    RECURRENT_SEQUENCE_GRAD,
    /**
     * Normal noise ({@link NoiseAttrs}): the input is the scalar step seed; the output, of the attributes' shape,
     * holds independent draws of mean 0 and the given standard deviation, a pure function of (seed, salt, element
     * index), so eager and compiled runs and any thread count draw the same values. It has no gradient (nothing to
     * differentiate: its only input is the seed).
     */
    RANDOM_NORMAL,
    /**
     * A random image augmentation ({@link ImageAugmentAttrs}): inputs are images {@code (n, h, w, c)} and the scalar
     * step seed; each image is transformed by its own draw from a generator seeded with the step's seed mixed with
     * the salt, in image order, so eager and compiled runs draw the same transformations.
     */
    IMAGE_AUGMENT,
    /**
     * Backward of IMAGE_AUGMENT: inputs are its images, the upstream gradient and the step seed; it replays the
     * forward draws from the seed (nothing is kept between the passes).
     */
    IMAGE_AUGMENT_GRAD,
    /**
     * Fused scaled-dot-product attention ({@link AttentionAttrs}): inputs are the queries {@code q [B, T, H, D]},
     * keys {@code k [B, S, H, D]}, values {@code v [B, S, H, Dv]} (the projections' own layout, heads side by side
     * in each row) and optionally an additive mask {@code [B, T, S]} or {@code [B, 1, S]}; the output
     * {@code [B, T, H, Dv]} is {@code softmax(q_h k_h^T + mask) v_h} per batch entry and head. A causal node leaves
     * key {@code j} out of query row {@code i} for {@code j > i} (probability exactly 0). The scale is the caller's:
     * it multiplies {@code q} first. Keeps each row's score maximum and reciprocal sum of exponentials
     * {@code [B, H, T, 2]} (its aux value) for the gradient, which recomputes the probabilities from them rather
     * than keeping them.
     */
    ATTENTION,
    /**
     * Backward of ATTENTION: inputs are the upstream gradient, the ATTENTION node (whose output and row statistics it
     * reads), then its q, k, v and mask. The result is flat: the gradient of q, then of k, then of v. The mask gets
     * none.
     */
    ATTENTION_GRAD
}
