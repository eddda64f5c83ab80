package dev.brisk.ops;

import dev.brisk.tensor.Shape;
import java.util.Arrays;
import java.util.List;

/** Output shapes of the primitive ops, with errors that name the expected and the actual shapes. */
public final class ShapeInference {
    private ShapeInference() {
    }

    /**
     * The output shape of {@code op} applied to {@code inputs}.
     *
     * @param op the operation
     * @param attrs its attributes
     * @param inputs its input nodes
     * @return the output shape
     * @throws IllegalArgumentException when the inputs do not fit the op
     */
    public static Shape infer(OpType op, Attrs attrs, List<Node> inputs) {
        return switch (op) {
            case INPUT, VARIABLE, CONSTANT -> throw new IllegalArgumentException(op + " has no inferred shape");
            case UNARY, SOFTMAX, DROPOUT -> inputs.get(0).shape();
            case BINARY -> Shape.broadcast(inputs.get(0).shape(), inputs.get(1).shape());
            case MATMUL -> matmul((MatMulAttrs) attrs, inputs.get(0).shape(), inputs.get(1).shape());
            case RESHAPE -> reshape(inputs.get(0).shape(), ((ShapeAttrs) attrs).shape());
            case TRANSPOSE -> transpose(inputs.get(0).shape());
            case CONCAT -> concat(inputs, ((AxisAttrs) attrs).axis());
            case SLICE -> slice(inputs.get(0).shape(), (AxisAttrs) attrs);
            case REDUCE -> reduce(inputs.get(0).shape(), (ReduceAttrs) attrs);
            case BATCH_NORM_STATS -> Shape.of(2, channels(op, inputs.get(0).shape()));
            case BATCH_NORM, BATCH_NORM_GRAD -> batchNorm(op, inputs);
            case BATCH_NORM_PARAM_GRAD -> {
                Shape x = batchNorm(op, inputs);
                yield Shape.of(2, x.dim(-1));
            }
            case BROADCAST_TO -> broadcastTo(inputs.get(0).shape(), ((ShapeAttrs) attrs).shape());
            case SOFTMAX_GRAD, DROPOUT_GRAD -> sameShapes(op, inputs.get(0).shape(), inputs.get(1).shape());
            case GATHER_ROWS -> gather(inputs.get(0).shape(), inputs.get(1).shape());
            case SCATTER_ROWS -> ((ShapeAttrs) attrs).shape();
            case SPARSE_SOFTMAX_XENT -> perRow(op, inputs.get(0).shape(), inputs.get(1).shape());
            case SPARSE_SOFTMAX_XENT_GRAD -> xentGrad(inputs);
            case CONV2D -> conv(inputs.get(0).shape(), inputs.get(1).shape(), (ConvAttrs) attrs);
            case CONV2D_GRAD_INPUT, CONV2D_GRAD_FILTER -> ((ConvGradAttrs) attrs).resultShape();
            case MAX_POOL_GRAD -> maxPoolGrad(inputs, (PoolGradAttrs) attrs);
            case AVG_POOL_GRAD -> ((PoolGradAttrs) attrs).resultShape();
            case MAX_POOL, AVG_POOL -> pool(inputs.get(0).shape(), (PoolAttrs) attrs);
            case ASSIGN -> sameShapes(op, inputs.get(0).shape(), inputs.get(1).shape());
            case UPDATE -> Shape.scalar();
            case BATCH_MATMUL -> batchMatmul((MatMulAttrs) attrs, inputs.get(0).shape(), inputs.get(1).shape());
            case PERMUTE -> permute(inputs.get(0).shape(), ((PermuteAttrs) attrs).perm());
            case LAYER_NORM, LAYER_NORM_GRAD -> layerNorm(op, inputs);
            case LAYER_NORM_PARAM_GRAD -> Shape.of(2, layerNorm(op, inputs).dim(-1));
            case EMBEDDING_LOOKUP -> embeddingLookup(inputs.get(0).shape(), inputs.get(1).shape());
            case EMBEDDING_GRAD -> ((ShapeAttrs) attrs).shape();
            case RANDOM_NORMAL -> ((NoiseAttrs) attrs).shape();
            case IMAGE_AUGMENT -> images(((ImageAugmentAttrs) attrs).augment().name(), inputs.get(0).shape());
            case IMAGE_AUGMENT_GRAD -> sameShapes(op, images(((ImageAugmentAttrs) attrs).augment().name(),
                    inputs.get(0).shape()), inputs.get(1).shape());
            case NONZERO_MASK -> inputs.get(0).shape();
            case RECURRENT_SEQUENCE -> recurrent(inputs, (RecurrentAttrs) attrs);
            case RECURRENT_SEQUENCE_GRAD -> recurrentGrad(inputs, (RecurrentAttrs) attrs);
            case ATTENTION -> AttentionShapes.forward(inputs);
            case ATTENTION_GRAD -> AttentionShapes.backward(inputs);
        };
    }

    /** A batch of images {@code (n, h, w, c)}, or an error naming the augmentation and the shape. */
    private static Shape images(String who, Shape x) {
        if (x.rank() != 4) {
            throw new IllegalArgumentException(who + " takes images (batch, height, width, channels), got " + x);
        }
        return x;
    }

    /** The channel count (last axis) of a batch normalization's input, which needs at least two axes. */
    private static int channels(OpType op, Shape x) {
        if (x.rank() < 2) {
            throw new IllegalArgumentException(op + " needs an input with a batch axis and a channel axis, got " + x);
        }
        return x.dim(-1);
    }

    /**
     * The shape of a BATCH_NORM or its gradients, whose inputs are {@code x} (or the upstream gradient and then
     * {@code x}), the {@code [2, channels]} statistics and per-channel vectors.
     */
    private static Shape batchNorm(OpType op, List<Node> inputs) {
        int first = op == OpType.BATCH_NORM ? 0 : 1;
        Shape x = inputs.get(first).shape();
        int c = channels(op, x);
        if (first == 1) {
            sameShapes(op, inputs.get(0).shape(), x);
        }
        sameShapes(op, inputs.get(first + 1).shape(), Shape.of(2, c));
        for (int i = first + 2; i < inputs.size(); i++) {
            Shape expected = op == OpType.BATCH_NORM_GRAD && i == inputs.size() - 1 ? Shape.of(2, c) : Shape.of(c);
            sameShapes(op, inputs.get(i).shape(), expected);
        }
        return x;
    }

    /**
     * The shape of the value a node keeps beside its output for its gradient, or null for nodes that keep none:
     * DROPOUT its mask, SPARSE_SOFTMAX_XENT its row probabilities, MAX_POOL the cell of each maximum, ATTENTION each
     * query row's score maximum and reciprocal sum.
     *
     * @param node the node
     * @return the shape, or null
     */
    public static Shape auxShape(Node node) {
        return switch (node.op()) {
            case DROPOUT, MAX_POOL -> node.shape();
            case SPARSE_SOFTMAX_XENT -> node.input(0).shape();
            case RECURRENT_SEQUENCE -> Shape.of(recurrentGeometry(node).stateSize());
            case RECURRENT_SEQUENCE_GRAD -> Shape.of(recurrentGeometry(node.input(1)).scratchSize());
            case ATTENTION -> AttentionShapes.rowStatistics(node);
            default -> null;
        };
    }

    /**
     * The node whose kept state ({@link #auxShape}) a gradient node reads, or null: DROPOUT_GRAD reads its DROPOUT
     * (input 1), SPARSE_SOFTMAX_XENT_GRAD its SPARSE_SOFTMAX_XENT (input 2), MAX_POOL_GRAD its MAX_POOL (input 0).
     *
     * @param node a gradient node
     * @return the forward node, or null
     */
    public static Node auxSource(Node node) {
        return switch (node.op()) {
            case MAX_POOL_GRAD -> node.input(0);
            case DROPOUT_GRAD -> node.input(1);
            case SPARSE_SOFTMAX_XENT_GRAD -> node.input(2);
            case RECURRENT_SEQUENCE_GRAD, ATTENTION_GRAD -> node.input(1);
            default -> null;
        };
    }

    /**
     * True when a node's kept state serves only its gradient, so that a plan without the gradient keeps none: the
     * cells of MAX_POOL (its kernel then records none). Dropout's mask and the cross-entropy's probabilities are
     * written by the forward kernel itself.
     *
     * @param node the node
     * @return true when only the gradient reads it
     */
    public static boolean auxOnlyForGradient(Node node) {
        return node.op() == OpType.MAX_POOL;
    }

    private static Shape maxPoolGrad(List<Node> inputs, PoolGradAttrs attrs) {
        Node pool = inputs.get(0);
        if (pool.op() != OpType.MAX_POOL) {
            throw new IllegalArgumentException("MAX_POOL_GRAD reads a MAX_POOL node, got " + pool.op());
        }
        sameShapes(OpType.MAX_POOL_GRAD, inputs.get(1).shape(), pool.shape());
        return attrs.resultShape();
    }

    private static Shape xentGrad(List<Node> inputs) {
        Node xent = inputs.get(2);
        if (xent.op() != OpType.SPARSE_SOFTMAX_XENT) {
            throw new IllegalArgumentException("SPARSE_SOFTMAX_XENT_GRAD reads a SPARSE_SOFTMAX_XENT node, got "
                    + xent.op());
        }
        sameShapes(OpType.SPARSE_SOFTMAX_XENT_GRAD, inputs.get(0).shape(), xent.shape());
        sameShapes(OpType.SPARSE_SOFTMAX_XENT_GRAD, inputs.get(1).shape(), xent.input(1).shape());
        return xent.input(0).shape();
    }

    private static Shape sameShapes(OpType op, Shape a, Shape b) {
        if (!a.equals(b)) {
            throw new IllegalArgumentException(op + " needs equal shapes, got " + a + " and " + b);
        }
        return a;
    }

    private static Shape matmul(MatMulAttrs attrs, Shape a, Shape b) {
        if (a.rank() != 2 || b.rank() != 2) {
            throw new IllegalArgumentException("matmul needs two matrices, got " + a + " and " + b);
        }
        int m = attrs.transA() ? a.dim(1) : a.dim(0);
        int ka = attrs.transA() ? a.dim(0) : a.dim(1);
        int kb = attrs.transB() ? b.dim(1) : b.dim(0);
        int n = attrs.transB() ? b.dim(0) : b.dim(1);
        if (ka != kb) {
            throw new IllegalArgumentException("matmul inner dimensions differ: " + a + (attrs.transA() ? "^T" : "")
                    + " x " + b + (attrs.transB() ? "^T" : ""));
        }
        return Shape.of(m, n);
    }

    private static Shape reshape(Shape from, Shape to) {
        if (from.size() != to.size()) {
            throw new IllegalArgumentException("cannot reshape " + from + " (" + from.size() + " values) to " + to
                    + " (" + to.size() + " values)");
        }
        return to;
    }

    private static Shape concat(List<Node> inputs, int axis) {
        Shape first = inputs.get(0).shape();
        int ax = axis < 0 ? first.rank() + axis : axis;
        if (ax < 0 || ax >= first.rank()) {
            throw new IllegalArgumentException("concatenation axis " + axis + " is out of range for " + first);
        }
        int total = 0;
        for (Node n : inputs) {
            Shape s = n.shape();
            if (s.rank() != first.rank()) {
                throw new IllegalArgumentException("cannot concatenate " + first + " and " + s + ": ranks differ");
            }
            for (int i = 0; i < s.rank(); i++) {
                if (i != ax && s.dim(i) != first.dim(i)) {
                    throw new IllegalArgumentException("cannot concatenate " + first + " and " + s + " along axis "
                            + axis + ": other dimensions differ");
                }
            }
            total += s.dim(ax);
        }
        return first.withDim(ax, total);
    }

    private static Shape slice(Shape s, AxisAttrs a) {
        int ax = a.axis() < 0 ? s.rank() + a.axis() : a.axis();
        if (ax < 0 || ax >= s.rank() || a.start() < 0 || a.start() + a.length() > s.dim(ax)) {
            throw new IllegalArgumentException("slice [" + a.start() + ", " + (a.start() + a.length())
                    + ") along axis " + a.axis() + " is outside " + s);
        }
        return s.withDim(ax, a.length());
    }

    private static Shape transpose(Shape s) {
        if (s.rank() < 2) {
            throw new IllegalArgumentException("transpose needs rank >= 2, got " + s);
        }
        int[] d = s.dims();
        int t = d[d.length - 1];
        d[d.length - 1] = d[d.length - 2];
        d[d.length - 2] = t;
        return Shape.of(d);
    }

    private static Shape reduce(Shape s, ReduceAttrs attrs) {
        boolean[] mask = reduceMask(s.rank(), attrs.axes());
        int[] d = s.dims();
        int[] out = new int[s.rank()];
        int k = 0;
        for (int i = 0; i < d.length; i++) {
            if (!mask[i]) {
                out[k++] = d[i];
            } else if (attrs.keepDims()) {
                out[k++] = 1;
            }
        }
        return Shape.of(Arrays.copyOf(out, k));
    }

    /**
     * Which axes of a rank-{@code rank} tensor {@code axes} names (negative axes count from the end).
     *
     * @param rank the rank
     * @param axes the axes; negative axes count from the end
     * @return one flag per axis, true where it is reduced
     */
    public static boolean[] reduceMask(int rank, int[] axes) {
        boolean[] mask = new boolean[rank];
        for (int a : axes) {
            int axis = a < 0 ? rank + a : a;
            if (axis < 0 || axis >= rank) {
                throw new IllegalArgumentException("axis " + a + " is out of range for rank " + rank);
            }
            mask[axis] = true;
        }
        return mask;
    }

    private static Shape broadcastTo(Shape from, Shape to) {
        Shape b = Shape.broadcast(from, to);
        if (!b.equals(to)) {
            throw new IllegalArgumentException("cannot broadcast " + from + " to " + to);
        }
        return to;
    }

    private static Shape gather(Shape x, Shape index) {
        return perRow(OpType.GATHER_ROWS, x, index);
    }

    /** {@code [rows]}, for an op taking a {@code [rows, cols]} matrix and {@code [rows]} class indexes. */
    private static Shape perRow(OpType op, Shape x, Shape index) {
        if (x.rank() != 2 || index.rank() != 1 || index.dim(0) != x.dim(0)) {
            throw new IllegalArgumentException(op + " needs a (rows, cols) matrix and (rows,) indexes, got " + x
                    + " and " + index);
        }
        return index;
    }

    /**
     * Output size and leading padding of one spatial axis, TensorFlow-style.
     *
     * @param in the input size along the axis
     * @param window the window (kernel or pool) size
     * @param stride the stride
     * @param same true for "same" padding
     * @return {@code {out, padBefore}}
     */
    public static int[] outAndPad(int in, int window, int stride, boolean same) {
        if (same) {
            int out = (in + stride - 1) / stride;
            int total = Math.max((out - 1) * stride + window - in, 0);
            return new int[] {out, total / 2};
        }
        int out = (in - window) / stride + 1;
        return new int[] {Math.max(out, 0), 0};
    }

    private static Shape conv(Shape x, Shape w, ConvAttrs a) {
        if (x.rank() != 4) {
            throw new IllegalArgumentException("conv2d expects input of rank 4 (batch, height, width, channels), got "
                    + x);
        }
        if (w.rank() != 4 || w.dim(2) != x.dim(3)) {
            throw new IllegalArgumentException("conv2d kernel " + w + " does not fit input " + x
                    + " (kernel must be (kh, kw, " + x.dim(3) + ", filters))");
        }
        int[] h = outAndPad(x.dim(1), w.dim(0), a.strideH(), a.same());
        int[] wd = outAndPad(x.dim(2), w.dim(1), a.strideW(), a.same());
        if (h[0] <= 0 || wd[0] <= 0) {
            throw new IllegalArgumentException("conv2d kernel " + w.dim(0) + "x" + w.dim(1)
                    + " is larger than the input " + x.dim(1) + "x" + x.dim(2) + " with 'valid' padding");
        }
        return Shape.of(x.dim(0), h[0], wd[0], w.dim(3));
    }

    private static Shape pool(Shape x, PoolAttrs a) {
        if (x.rank() != 4) {
            throw new IllegalArgumentException("pooling expects input of rank 4 (batch, height, width, channels), got "
                    + x);
        }
        int[] h = outAndPad(x.dim(1), a.poolH(), a.strideH(), a.same());
        int[] w = outAndPad(x.dim(2), a.poolW(), a.strideW(), a.same());
        if (h[0] <= 0 || w[0] <= 0) {
            throw new IllegalArgumentException("pool window " + a.poolH() + "x" + a.poolW()
                    + " is larger than the input " + x.dim(1) + "x" + x.dim(2));
        }
        return Shape.of(x.dim(0), h[0], w[0], x.dim(3));
    }

    /**
     * The shape of {@code [..., m, k] x [..., k, n]}: equal batch axes, or one operand a plain matrix (used for every
     * batch entry of the other).
     */
    private static Shape batchMatmul(MatMulAttrs attrs, Shape a, Shape b) {
        if (a.rank() < 2 || b.rank() < 2) {
            throw new IllegalArgumentException("batched matmul needs operands of rank 2 or more, got " + a + " and "
                    + b);
        }
        Shape batchA = Shape.of(Arrays.copyOf(a.dims(), a.rank() - 2));
        Shape batchB = Shape.of(Arrays.copyOf(b.dims(), b.rank() - 2));
        if (a.rank() > 2 && b.rank() > 2 && !batchA.equals(batchB)) {
            throw new IllegalArgumentException("batched matmul needs equal batch axes, got " + a + " and " + b);
        }
        int m = attrs.transA() ? a.dim(-1) : a.dim(-2);
        int ka = attrs.transA() ? a.dim(-2) : a.dim(-1);
        int kb = attrs.transB() ? b.dim(-1) : b.dim(-2);
        int n = attrs.transB() ? b.dim(-2) : b.dim(-1);
        if (ka != kb) {
            throw new IllegalArgumentException("batched matmul inner dimensions differ: " + a
                    + (attrs.transA() ? "^T" : "") + " x " + b + (attrs.transB() ? "^T" : ""));
        }
        int[] batch = (a.rank() >= b.rank() ? batchA : batchB).dims();
        int[] out = Arrays.copyOf(batch, batch.length + 2);
        out[batch.length] = m;
        out[batch.length + 1] = n;
        return Shape.of(out);
    }

    /** The shape with axis {@code i} taken from axis {@code perm[i]}; {@code perm} must be a permutation. */
    private static Shape permute(Shape s, int[] perm) {
        if (perm.length != s.rank()) {
            throw new IllegalArgumentException("permutation " + Arrays.toString(perm) + " does not fit " + s);
        }
        boolean[] seen = new boolean[perm.length];
        int[] out = new int[perm.length];
        for (int i = 0; i < perm.length; i++) {
            int p = perm[i];
            if (p < 0 || p >= perm.length || seen[p]) {
                throw new IllegalArgumentException(Arrays.toString(perm) + " is not a permutation of the axes of "
                        + s);
            }
            seen[p] = true;
            out[i] = s.dim(p);
        }
        return Shape.of(out);
    }

    /**
     * The shape of a LAYER_NORM ({@code x, gamma, beta}) or of its gradients ({@code dy, x} and for the input's
     * gradient {@code gamma}): {@code x}'s, with one gamma and beta per element of its last axis.
     */
    private static Shape layerNorm(OpType op, List<Node> inputs) {
        int first = op == OpType.LAYER_NORM ? 0 : 1;
        Shape x = inputs.get(first).shape();
        if (x.rank() < 1) {
            throw new IllegalArgumentException(op + " needs an input with at least one axis, got " + x);
        }
        if (first == 1) {
            sameShapes(op, inputs.get(0).shape(), x);
        }
        for (int i = first + 1; i < inputs.size(); i++) {
            sameShapes(op, inputs.get(i).shape(), Shape.of(x.dim(-1)));
        }
        return x;
    }

    /** {@code [.., dim]} for a {@code [vocab, dim]} table and ids {@code [..]}. */
    private static Shape embeddingLookup(Shape table, Shape ids) {
        if (table.rank() != 2) {
            throw new IllegalArgumentException("EMBEDDING_LOOKUP needs a (vocab, dim) table, got " + table);
        }
        int[] dims = Arrays.copyOf(ids.dims(), ids.rank() + 1);
        dims[ids.rank()] = table.dim(1);
        return Shape.of(dims);
    }

    /**
     * The geometry of a RECURRENT_SEQUENCE node.
     *
     * @param node the node
     * @return its geometry
     */
    public static RecurrentGeometry recurrentGeometry(Node node) {
        return RecurrentGeometry.of(node.input(0).shape(), node.attrs(RecurrentAttrs.class));
    }

    private static Shape recurrent(List<Node> inputs, RecurrentAttrs a) {
        Shape x = inputs.get(0).shape();
        if (x.rank() != 3) {
            throw new IllegalArgumentException(a.cell() + " expects input of rank 3 (batch, steps, features), got "
                    + x);
        }
        RecurrentGeometry g = RecurrentGeometry.of(x, a);
        Shape bias = a.cell() == RecurrentCell.GRU ? Shape.of(2, g.gateWidth()) : Shape.of(g.gateWidth());
        sameShapes(OpType.RECURRENT_SEQUENCE, inputs.get(1).shape(), Shape.of(g.inputs(), g.gateWidth()));
        sameShapes(OpType.RECURRENT_SEQUENCE, inputs.get(2).shape(), Shape.of(g.units(), g.gateWidth()));
        sameShapes(OpType.RECURRENT_SEQUENCE, inputs.get(3).shape(), bias);
        int expected = 4 + (a.masked() ? 1 : 0) + (a.initialState() ? 1 : 0);
        if (inputs.size() != expected) {
            throw new IllegalArgumentException("RECURRENT_SEQUENCE with masked=" + a.masked() + " and initialState="
                    + a.initialState() + " takes " + expected + " inputs, got " + inputs.size());
        }
        if (a.masked()) {
            sameShapes(OpType.RECURRENT_SEQUENCE, inputs.get(a.maskInput()).shape(), Shape.of(g.batch(), g.steps()));
        }
        if (a.initialState()) {
            sameShapes(OpType.RECURRENT_SEQUENCE, inputs.get(a.initialStateInput()).shape(),
                    Shape.of(g.batch(), g.states() * g.units()));
        }
        if (a.returnState()) {
            return Shape.of(g.batch(), g.outputRowWidth());
        }
        return a.returnSequences() ? Shape.of(g.batch(), g.steps(), g.units()) : Shape.of(g.batch(), g.units());
    }

    private static Shape recurrentGrad(List<Node> inputs, RecurrentAttrs a) {
        Node forward = inputs.get(1);
        if (forward.op() != OpType.RECURRENT_SEQUENCE) {
            throw new IllegalArgumentException("RECURRENT_SEQUENCE_GRAD reads a RECURRENT_SEQUENCE node, got "
                    + forward.op());
        }
        sameShapes(OpType.RECURRENT_SEQUENCE_GRAD, inputs.get(0).shape(), forward.shape());
        return Shape.of(recurrentGeometry(forward).gradientSize(a.inputGradient()));
    }
}
