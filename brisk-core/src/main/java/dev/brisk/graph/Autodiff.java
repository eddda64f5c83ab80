package dev.brisk.graph;

import dev.brisk.ops.AxisAttrs;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.ImageAugmentAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.PermuteAttrs;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.RecurrentAttrs;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.SoftmaxAttrs;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reverse-mode automatic differentiation on a {@link Graph}: walks the nodes from the loss back to the inputs and
 * adds the gradient ops to the same graph, so in eager mode they run at once and in symbolic mode they become part
 * of the compiled step.
 */
public final class Autodiff {
    private Autodiff() {
    }

    /**
     * Gradients of the scalar {@code loss} with respect to each of {@code wrt}; a node the loss does not depend on
     * gets a zero gradient of its shape.
     *
     * @param g the graph holding {@code loss}; the gradient nodes are added to it
     * @param loss a scalar node
     * @param wrt the nodes to differentiate by, typically the variables' nodes
     * @return one gradient per node of {@code wrt}, in the same order and shape
     */
    public static List<Node> gradients(Graph g, Node loss, List<Node> wrt) {
        if (loss.shape().rank() != 0) {
            throw new IllegalArgumentException("gradients need a scalar loss, got shape " + loss.shape());
        }
        return g.fusing(() -> backwardPass(g, loss, wrt));
    }

    private static List<Node> backwardPass(Graph g, Node loss, List<Node> wrt) {
        List<Node> nodes = g.nodes();
        boolean[] needed = dependsOnAny(nodes, wrt, loss);
        Map<Node, Node> grads = new IdentityHashMap<>();
        grads.put(loss, g.constant(1f));
        for (int i = loss.id(); i >= 0; i--) {
            Node n = nodes.get(i);
            Node dy = grads.get(n);
            if (dy == null || n.inputs().isEmpty()) {
                continue;
            }
            Node[] dIn = g.inScope(n.scope(), () -> backward(g, n, dy, needed));
            for (int k = 0; k < dIn.length; k++) {
                Node in = n.input(k);
                if (dIn[k] != null && needed[in.id()]) {
                    grads.merge(in, dIn[k], g::add);
                }
            }
        }
        List<Node> out = new ArrayList<>(wrt.size());
        for (Node w : wrt) {
            Node d = grads.get(w);
            out.add(d != null ? d : g.constant(dev.brisk.tensor.Tensor.zeros(w.shape())));
        }
        return out;
    }

    /** needed[i]: node i lies on a path from some node of {@code wrt} to {@code loss}. */
    private static boolean[] dependsOnAny(List<Node> nodes, List<Node> wrt, Node loss) {
        boolean[] fromWrt = new boolean[nodes.size()];
        for (Node w : wrt) {
            fromWrt[w.id()] = true;
        }
        for (Node n : nodes) {
            for (Node in : n.inputs()) {
                if (fromWrt[in.id()]) {
                    fromWrt[n.id()] = true;
                    break;
                }
            }
        }
        boolean[] toLoss = new boolean[nodes.size()];
        toLoss[loss.id()] = true;
        for (int i = loss.id(); i >= 0; i--) {
            if (toLoss[i]) {
                for (Node in : nodes.get(i).inputs()) {
                    toLoss[in.id()] = true;
                }
            }
        }
        boolean[] needed = new boolean[nodes.size()];
        for (int i = 0; i < needed.length; i++) {
            needed[i] = fromWrt[i] && toLoss[i];
        }
        return needed;
    }

    private static boolean any(boolean[] needed, Node n, int input) {
        return needed[n.input(input).id()];
    }

    /** The gradient contribution of {@code n} to each of its inputs (null where there is none). */
    private static Node[] backward(Graph g, Node n, Node dy, boolean[] needed) {
        Node[] in = n.inputs().toArray(new Node[0]);
        return switch (n.op()) {
            case UNARY -> new Node[] {unary(g, n.attrs(UnaryAttrs.class), in[0], n, dy)};
            case BINARY -> binary(g, n.attrs(BinaryAttrs.class), in[0], in[1], n, dy);
            case MATMUL -> matmul(g, n.attrs(MatMulAttrs.class), in[0], in[1], dy, needed, n);
            case RESHAPE -> new Node[] {g.reshape(dy, in[0].shape())};
            case TRANSPOSE -> new Node[] {g.transpose(dy)};
            case CONCAT -> concat(g, n.attrs(AxisAttrs.class), in, dy);
            case SLICE -> new Node[] {slice(g, n.attrs(AxisAttrs.class), in[0], dy)};
            case REDUCE -> new Node[] {reduce(g, n.attrs(ReduceAttrs.class), in[0], n, dy)};
            case BROADCAST_TO -> new Node[] {unbroadcast(g, dy, in[0].shape())};
            case SOFTMAX -> new Node[] {g.softmaxGrad(n.attrs(SoftmaxAttrs.class), n, dy)};
            case GATHER_ROWS -> new Node[] {g.scatterRows(dy, in[1], in[0].shape()), null};
            case SPARSE_SOFTMAX_XENT -> new Node[] {g.sparseSoftmaxCrossEntropyGrad(dy, in[1], n), null};
            case CONV2D -> {
                ConvAttrs a = n.attrs(ConvAttrs.class);
                yield new Node[] {
                    any(needed, n, 0) ? g.convGradInput(dy, in[1], a, in[0].shape()) : null,
                    any(needed, n, 1) ? g.convGradFilter(in[0], dy, a, in[1].shape()) : null};
            }
            case CONV2D_GRAD_INPUT -> {
                // A transposed convolution (linear in both inputs): its input's gradient is the forward convolution
                // of dy, its kernel's the filter gradient with the roles of image and output gradient swapped.
                ConvAttrs a = n.attrs(ConvGradAttrs.class).conv();
                yield new Node[] {
                    any(needed, n, 0) ? g.conv2d(dy, in[1], a.strideH(), a.strideW(), a.same()) : null,
                    any(needed, n, 1) ? g.convGradFilter(dy, in[0], a, in[1].shape()) : null};
            }
            case MAX_POOL -> new Node[] {g.maxPoolGrad(n, dy)};
            case AVG_POOL -> new Node[] {g.avgPoolGrad(dy, n.attrs(PoolAttrs.class), in[0].shape())};
            case DROPOUT -> new Node[] {g.dropoutGrad(dy, n), null};
            case IMAGE_AUGMENT -> new Node[] {g.imageAugmentGrad(n.attrs(ImageAugmentAttrs.class), in[0], dy, in[1]),
                null};
            case BATCH_NORM -> batchNorm(g, n, dy, needed);
            case BATCH_MATMUL -> batchMatmul(g, n.attrs(MatMulAttrs.class), in[0], in[1], dy, needed, n);
            case PERMUTE -> new Node[] {g.permute(dy, n.attrs(PermuteAttrs.class).inverse())};
            case LAYER_NORM -> layerNorm(g, n, dy, needed);
            case EMBEDDING_LOOKUP -> new Node[] {g.embeddingGrad(dy, in[1], in[0].shape()), null};
            case RECURRENT_SEQUENCE -> recurrent(g, n, dy, needed);
            case ATTENTION -> attention(g, n, dy, needed);
            default -> throw new UnsupportedOperationException("no gradient rule for " + n.op()
                    + " (it is only used in backward passes or has no derivative)");
        };
    }

    /**
     * BATCH_NORM's gradients from two fused kernels that sum in double (a composition of elementwise ops and float
     * reductions lost up to a hundred times float32's precision on batches with a large mean): the per-channel sums
     * first, then the input's gradient from them. The statistics get none; in training mode the input's gradient
     * already includes their dependence on it.
     */
    private static Node[] batchNorm(Graph g, Node n, Node dy, boolean[] needed) {
        Node sums = g.batchNormParamGrad(dy, n);
        Shape channels = n.input(2).shape();
        Node dx = any(needed, n, 0) ? g.batchNormGrad(dy, n, sums) : null;
        Node dgamma = any(needed, n, 2) ? g.reshape(g.slice(sums, 0, 1, 1), channels) : null;
        Node dbeta = any(needed, n, 3) ? g.reshape(g.slice(sums, 0, 0, 1), channels) : null;
        return new Node[] {dx, null, dgamma, dbeta};
    }

    /**
     * An ATTENTION's gradients from one backward node that recomputes the probabilities, whose flat result holds the
     * gradients of q, k and v, each sliced out and reshaped. The additive mask gets none (it is data, not a weight).
     */
    private static Node[] attention(Graph g, Node n, Node dy, boolean[] needed) {
        Node packed = g.attentionGrad(dy, n);
        Node[] out = new Node[n.inputs().size()];
        int start = 0;
        for (int i = 0; i < 3; i++) {
            Shape shape = n.input(i).shape();
            if (any(needed, n, i)) {
                out[i] = g.reshape(g.slice(packed, 0, start, shape.size()), shape);
            }
            start += shape.size();
        }
        return out;
    }

    /**
     * A RECURRENT_SEQUENCE's gradients from one backward-through-time node, whose flat result holds the input's
     * (when needed), the kernel's, the recurrent kernel's, the bias's and the initial state's (when it is an input),
     * each sliced out and reshaped. The mask gets none.
     */
    private static Node[] recurrent(Graph g, Node n, Node dy, boolean[] needed) {
        RecurrentAttrs a = n.attrs(RecurrentAttrs.class);
        boolean dx = any(needed, n, 0);
        Node packed = g.recurrentSequenceGrad(dy, n, dx);
        Node[] out = new Node[n.inputs().size()];
        int start = 0;
        for (int i = dx ? 0 : 1; i < 4; i++) {
            Shape shape = n.input(i).shape();
            int size = shape.size();
            if (any(needed, n, i)) {
                out[i] = g.reshape(g.slice(packed, 0, start, size), shape);
            }
            start += size;
        }
        if (a.initialState() && any(needed, n, a.initialStateInput())) {
            Shape shape = n.input(a.initialStateInput()).shape();
            out[a.initialStateInput()] = g.reshape(g.slice(packed, 0, start, shape.size()), shape);
        }
        return out;
    }

    /**
     * SLICE's gradient: {@code dy} in its place along the axis, zeros elsewhere (a CONCAT with zero constants).
     */
    private static Node slice(Graph g, AxisAttrs a, Node x, Node dy) {
        Shape shape = x.shape();
        int axis = a.axis() < 0 ? a.axis() + shape.rank() : a.axis();
        int full = shape.dim(axis);
        int after = full - a.start() - a.length();
        List<Node> parts = new ArrayList<>(3);
        if (a.start() > 0) {
            parts.add(g.constant(Tensor.zeros(shape.withDim(axis, a.start()))));
        }
        parts.add(dy);
        if (after > 0) {
            parts.add(g.constant(Tensor.zeros(shape.withDim(axis, after))));
        }
        return parts.size() == 1 ? dy : g.concat(axis, parts);
    }

    private static Node[] concat(Graph g, AxisAttrs a, Node[] in, Node dy) {
        Node[] out = new Node[in.length];
        int start = 0;
        for (int i = 0; i < in.length; i++) {
            int len = in[i].shape().dim(a.axis());
            out[i] = g.slice(dy, a.axis(), start, len);
            start += len;
        }
        return out;
    }

    private static Node unary(Graph g, UnaryAttrs a, Node x, Node y, Node dy) {
        return switch (a.fn()) {
            case NEG -> g.neg(dy);
            case EXP -> g.mul(dy, y);
            case LOG -> g.div(dy, x);
            case SQRT -> g.div(g.scale(dy, 0.5f), y);
            case RSQRT -> g.mul(dy, g.scale(g.mul(g.square(y), y), -0.5f));
            case SQUARE -> g.mul(dy, g.scale(x, 2f));
            case ABS -> g.mul(dy, sign(g, x));
            case RECIPROCAL -> g.neg(g.mul(dy, g.square(y)));
            // relu'(x) only asks whether x > 0, which relu(x) > 0 answers the same way (NaN included); reading the
            // output lets the pre-activation go (fused away in plans and in eager fused chains).
            case RELU -> g.binary(BinaryFn.RELU_GRAD, y, dy);
            case LEAKY_RELU -> g.binary(BinaryFn.LEAKY_RELU_GRAD, a.alpha(), x, dy);
            case SIGMOID -> g.binary(BinaryFn.SIGMOID_GRAD, y, dy);
            case TANH -> g.binary(BinaryFn.TANH_GRAD, y, dy);
            case GELU -> g.binary(BinaryFn.GELU_GRAD, x, dy);
            case SCALE -> g.scale(dy, a.alpha());
            case ADD_SCALAR -> dy;
            case CLIP_PROB -> g.binary(BinaryFn.CLIP_PROB_GRAD, a.alpha(), x, dy);
            case NON_FINITE -> throw new UnsupportedOperationException("NON_FINITE has no gradient");
        };
    }

    private static Node sign(Graph g, Node x) {
        Node zero = g.constant(0f);
        return g.sub(g.binary(BinaryFn.GREATER, x, zero), g.binary(BinaryFn.GREATER, zero, x));
    }

    private static Node[] binary(Graph g, BinaryAttrs a, Node x1, Node x2, Node y, Node dy) {
        if (a.fn() == BinaryFn.GREATER) {
            // A comparison is piecewise constant: no gradient reaches either side (as in Keras and PyTorch), so a
            // mask such as x * (x > t) differentiates as x times a constant mask.
            return new Node[] {null, null};
        }
        Node d1;
        Node d2;
        switch (a.fn()) {
            case ADD -> {
                d1 = dy;
                d2 = dy;
            }
            case SUB -> {
                d1 = dy;
                d2 = g.neg(dy);
            }
            case MUL -> {
                d1 = g.mul(dy, x2);
                d2 = g.mul(dy, x1);
            }
            case DIV -> {
                d1 = g.div(dy, x2);
                d2 = g.neg(g.div(g.mul(dy, y), x2));
            }
            case MAX, MIN -> {
                // The winner takes the gradient; on a tie the first input does.
                Node secondWins = a.fn() == BinaryFn.MAX ? g.binary(BinaryFn.GREATER, x2, x1)
                        : g.binary(BinaryFn.GREATER, x1, x2);
                d2 = g.mul(dy, secondWins);
                d1 = g.sub(dy, d2);
            }
            default -> throw new UnsupportedOperationException("no gradient rule for " + a.fn()
                    + " (a backward-only or comparison function)");
        }
        return new Node[] {unbroadcast(g, d1, x1.shape()), unbroadcast(g, d2, x2.shape())};
    }

    private static Node[] matmul(Graph g, MatMulAttrs t, Node a, Node b, Node dy, boolean[] needed, Node n) {
        Node da = null;
        Node db = null;
        if (any(needed, n, 0)) {
            if (!t.transA()) {
                da = t.transB() ? g.matmul(dy, b) : g.matmul(dy, b, false, true);
            } else {
                da = t.transB() ? g.matmul(b, dy, true, true) : g.matmul(b, dy, false, true);
            }
        }
        if (any(needed, n, 1)) {
            if (!t.transB()) {
                db = t.transA() ? g.matmul(a, dy) : g.matmul(a, dy, true, false);
            } else {
                db = t.transA() ? g.matmul(dy, a, true, true) : g.matmul(dy, a, true, false);
            }
        }
        return new Node[] {da, db};
    }

    private static Node reduce(Graph g, ReduceAttrs a, Node x, Node y, Node dy) {
        Shape kept = keptShape(x.shape(), a.axes());
        Node grad = g.broadcastTo(g.reshape(dy, kept), x.shape());
        if (a.fn() == ReduceFn.SUM) {
            return grad;
        }
        // MAX: split the gradient evenly among the positions equal to the maximum (as TF and PyTorch do).
        Node max = g.broadcastTo(g.reshape(y, kept), x.shape());
        Node isMax = g.addScalar(g.neg(g.binary(BinaryFn.GREATER, max, x)), 1f);
        Node ties = g.broadcastTo(g.sum(isMax, true, a.axes()), x.shape());
        return g.mul(grad, g.div(isMax, ties));
    }

    private static Shape keptShape(Shape x, int[] axes) {
        boolean[] mask = ShapeInference.reduceMask(x.rank(), axes);
        int[] d = x.dims();
        for (int i = 0; i < d.length; i++) {
            if (mask[i]) {
                d[i] = 1;
            }
        }
        return Shape.of(d);
    }

    /** Sums {@code grad} over the axes along which an input of {@code shape} was broadcast. */
    static Node unbroadcast(Graph g, Node grad, Shape shape) {
        Shape gs = grad.shape();
        if (gs.equals(shape)) {
            return grad;
        }
        int extra = gs.rank() - shape.rank();
        int[] axes = new int[gs.rank()];
        int k = 0;
        for (int i = 0; i < gs.rank(); i++) {
            if (i < extra || (shape.dim(i - extra) == 1 && gs.dim(i) != 1)) {
                axes[k++] = i;
            }
        }
        Node summed = k == 0 ? grad : g.sum(grad, false, Arrays.copyOf(axes, k));
        return g.reshape(summed, shape);
    }

    /**
     * The gradients of a batched product: the 2-D rules with batched products, and for an operand that is a plain
     * matrix used by every batch entry, the sum of its per-entry gradients over the batch axes.
     */
    private static Node[] batchMatmul(Graph g, MatMulAttrs t, Node a, Node b, Node dy, boolean[] needed, Node n) {
        Node da = null;
        Node db = null;
        if (any(needed, n, 0)) {
            if (!t.transA()) {
                da = t.transB() ? g.batchMatmul(dy, b, false, false) : g.batchMatmul(dy, b, false, true);
            } else {
                da = t.transB() ? g.batchMatmul(b, dy, true, true) : g.batchMatmul(b, dy, false, true);
            }
            da = sumBatch(g, da, a.shape());
        }
        if (any(needed, n, 1)) {
            if (!t.transB()) {
                db = t.transA() ? g.batchMatmul(a, dy, false, false) : g.batchMatmul(a, dy, true, false);
            } else {
                db = t.transA() ? g.batchMatmul(dy, a, true, true) : g.batchMatmul(dy, a, true, false);
            }
            db = sumBatch(g, db, b.shape());
        }
        return new Node[] {da, db};
    }

    /** {@code grad} summed over its batch axes when the operand of {@code shape} was a plain matrix. */
    private static Node sumBatch(Graph g, Node grad, Shape shape) {
        int extra = grad.shape().rank() - shape.rank();
        if (extra == 0) {
            return grad;
        }
        int[] axes = new int[extra];
        Arrays.setAll(axes, i -> i);
        return g.sum(grad, false, axes);
    }

    /**
     * LAYER_NORM's gradients from two fused kernels that recompute each row's statistics in double: the sums of
     * {@code dy} and {@code dy * xhat} over the rows (beta's and gamma's gradients), and the input's gradient.
     */
    private static Node[] layerNorm(Graph g, Node n, Node dy, boolean[] needed) {
        Shape channels = n.input(1).shape();
        Node dx = any(needed, n, 0) ? g.layerNormGrad(dy, n) : null;
        Node dgamma = null;
        Node dbeta = null;
        if (any(needed, n, 1) || any(needed, n, 2)) {
            Node sums = g.layerNormParamGrad(dy, n);
            dgamma = any(needed, n, 1) ? g.reshape(g.slice(sums, 0, 1, 1), channels) : null;
            dbeta = any(needed, n, 2) ? g.reshape(g.slice(sums, 0, 0, 1), channels) : null;
        }
        return new Node[] {dx, dgamma, dbeta};
    }
}
