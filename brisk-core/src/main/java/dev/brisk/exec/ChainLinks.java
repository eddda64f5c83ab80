package dev.brisk.exec;

import dev.brisk.backend.ElementwiseChain;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.PoolGradAttrs;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import java.util.Set;

/**
 * Which node may follow which in a chain run as one fused kernel call: the rules shared by a compiled plan's
 * {@link Fusion} and an eager graph's fused chains. They look at one link only; whether the earlier node's value is
 * needed elsewhere is for the caller to know.
 */
public final class ChainLinks {
    private static final Set<BinaryFn> GATES = Set.of(BinaryFn.RELU_GRAD, BinaryFn.LEAKY_RELU_GRAD,
            BinaryFn.SIGMOID_GRAD, BinaryFn.TANH_GRAD, BinaryFn.GELU_GRAD);

    private ChainLinks() {
    }

    /** True for a node that can start a chain: a product, a convolution, or max pooling's gradient. */
    public static boolean anchors(Node n) {
        return n.op() == OpType.CONV2D || n.op() == OpType.MATMUL || n.op() == OpType.MAX_POOL_GRAD;
    }

    /**
     * True for a binary op of two operands of its own shape (no broadcasting), which can start a chain that an
     * activation ends ({@link Kernels#binaryActivation}): a residual connection's add, for one.
     */
    public static boolean elementwiseAnchor(Node n) {
        return n.op() == OpType.BINARY && n.input(0).shape().equals(n.shape())
                && n.input(1).shape().equals(n.shape());
    }

    /**
     * True for a unary op, or a binary op whose operands are each read whole, as a vector along the last axis or as
     * one value ({@link #broadcastOf}), with more than one element: a node that a general elementwise chain
     * ({@link Kernels#elementwiseChain}) can run as one of its steps.
     */
    public static boolean elementwise(Node n) {
        if (n.shape().size() < 2) {
            return false;
        }
        return switch (n.op()) {
            case UNARY -> n.input(0).shape().size() == n.shape().size();
            case BINARY -> broadcastOf(n.input(0).shape(), n.shape()) != null
                    && broadcastOf(n.input(1).shape(), n.shape()) != null;
            default -> false;
        };
    }

    /**
     * True when elementwise op {@code next} can follow {@code cur} in a general elementwise chain: it reads
     * {@code cur}'s value as an operand and has its shape, so the chain's running value keeps one size.
     */
    public static boolean continuesElementwise(Node next, Node cur) {
        return elementwise(next) && next.shape().equals(cur.shape())
                && (next.input(0) == cur || (next.op() == OpType.BINARY && next.input(1) == cur));
    }

    /**
     * How an operand of shape {@code operand} is read by an elementwise op whose value has shape {@code shape}: whole
     * (as many elements: broadcasting can then only add axes of size 1), as a vector repeated along the last axis
     * (every other axis 1: a bias or per-channel scale), as one value, or null for any other broadcast (a column,
     * say), which the separate binary kernel runs with other strides.
     */
    public static ElementwiseChain.Broadcast broadcastOf(Shape operand, Shape shape) {
        if (operand.size() == shape.size()) {
            return ElementwiseChain.Broadcast.FULL;
        }
        if (operand.size() == 1) {
            return ElementwiseChain.Broadcast.SCALAR;
        }
        boolean row = operand.rank() >= 1 && operand.rank() <= shape.rank() && operand.dim(-1) == shape.dim(-1)
                && operand.size() == operand.dim(-1);
        return row ? ElementwiseChain.Broadcast.ROW : null;
    }

    /**
     * True when {@code reader}, a batch normalization's parameter or input gradient, can take relu's gradient
     * {@code gate} as its dy on the fly (from relu's output and the upstream gradient, without its value): its
     * kernels gate dy by relu's output themselves (see {@link Kernels#batchNormGrad}).
     */
    public static boolean gatesBatchNormGradient(Node reader, Node gate) {
        boolean gradient = reader.op() == OpType.BATCH_NORM_PARAM_GRAD || reader.op() == OpType.BATCH_NORM_GRAD;
        if (!gradient || reader.input(0) != gate || gate.op() != OpType.BINARY
                || gate.attrs(BinaryAttrs.class).fn() != BinaryFn.RELU_GRAD) {
            return false;
        }
        for (int i = 1; i < reader.inputs().size(); i++) {
            if (reader.input(i) == gate) {
                return false;
            }
        }
        return gate.input(0).shape().equals(gate.shape()) && gate.input(1).shape().equals(gate.shape());
    }

    /**
     * The batch normalization whose relu the gradient {@code gate} undoes, when {@code reader} (one of that same
     * normalization's gradients, taking {@code gate} on the fly as {@link #gatesBatchNormGradient} allows) can
     * recompute relu's input from its own {@code x} and statistics rather than read relu's output: relu's input is a
     * BATCH_NORM of the reader's {@code x} and statistics, with the reader's attributes (and for the input gradient
     * its gamma). Null otherwise. The reader then also reads the normalization's gamma and beta.
     */
    public static Node normalizationUnderRelu(Node reader, Node gate) {
        Node relu = gate.input(0);
        if (relu.op() != OpType.UNARY || relu.attrs(UnaryAttrs.class).fn() != UnaryFn.RELU) {
            return null;
        }
        Node norm = relu.input(0);
        boolean same = norm.op() == OpType.BATCH_NORM && norm.input(0) == reader.input(1)
                && norm.input(1) == reader.input(2) && norm.attrs().equals(reader.attrs())
                && (reader.op() != OpType.BATCH_NORM_GRAD || norm.input(2) == reader.input(3));
        return same ? norm : null;
    }

    /**
     * The per-channel bias that {@code add} adds to {@code product}'s output (a rank-1 node as long as the last
     * axis), or null when {@code add} is not such an add.
     */
    public static Node biasOf(Node add, Node product) {
        if (add.op() != OpType.BINARY || add.attrs(BinaryAttrs.class).fn() != BinaryFn.ADD
                || !add.shape().equals(product.shape())) {
            return null;
        }
        Node other = add.input(0) == product ? add.input(1) : add.input(1) == product ? add.input(0) : null;
        boolean perChannel = other != null && other != product && other.shape().rank() == 1
                && other.shape().dim(0) == product.shape().dim(-1);
        return perChannel ? other : null;
    }

    /**
     * True when {@code op} is a binary op that reads {@code product} (a product's value, or a reshape of it) as one
     * operand and as its other operand a value of its own shape, read whole: the product's call can apply it to each
     * block of the product while it is in cache ({@link Kernels#gemmBinary}), as an activation's gradient on the
     * product that made dy, or a sum of two gradient contributions.
     */
    public static boolean combinesProduct(Node op, Node product) {
        if (op.op() != OpType.BINARY || op.shape().size() < 2 || (op.input(0) == product) == (op.input(1) == product)) {
            return false;
        }
        return op.input(0).shape().equals(op.shape()) && op.input(1).shape().equals(op.shape());
    }

    /** True when {@code unary} is an activation applied elementwise to {@code x}, which the call computing x can do. */
    public static boolean activates(Node unary, Node x) {
        return unary.op() == OpType.UNARY && unary.input(0) == x && unary.shape().size() == x.shape().size();
    }

    /** True when {@code gate} is an activation's gradient taking max pooling's gradient {@code poolGrad} as dy. */
    public static boolean gates(Node gate, Node poolGrad) {
        return gate.op() == OpType.BINARY && GATES.contains(gate.attrs(BinaryAttrs.class).fn())
                && gate.input(1) == poolGrad && gate.input(0) != poolGrad
                && gate.input(0).shape().equals(poolGrad.shape()) && gate.shape().equals(poolGrad.shape());
    }

    /**
     * True when {@code pool} is a max pooling of {@code out}, the end of convolution {@code conv}'s chain (whose
     * activation node is {@code activation}, or null), that {@code kernels} can do while the convolution's output is
     * in cache ({@link Kernels#poolsConvolutionInCache}).
     */
    public static boolean poolsInCache(Node conv, Node out, Node activation, Node pool, Kernels kernels) {
        if (conv.op() != OpType.CONV2D || pool.op() != OpType.MAX_POOL || pool.input(0) != out) {
            return false;
        }
        UnaryFn fn = activation == null ? null : activation.attrs(UnaryAttrs.class).fn();
        return kernels.poolsConvolutionInCache(
                ConvGeometry.of(conv.input(0).shape(), conv.input(1).shape(), conv.attrs(ConvAttrs.class)),
                fn, PoolGeometry.of(out.shape(), pool.attrs(PoolAttrs.class)));
    }

    /**
     * True for max pooling's gradient {@code poolGrad} gated by relu's gradient {@code gate} of the pooled input
     * itself: the pool's cells decide the gate (the maximum, the cell it came from, is above zero), so that input is
     * not read.
     */
    public static boolean gatedByCells(Node poolGrad, Node gate) {
        return gate != null && poolGrad.op() == OpType.MAX_POOL_GRAD
                && gate.attrs(BinaryAttrs.class).fn() == BinaryFn.RELU_GRAD
                && gate.input(0) == poolGrad.input(0).input(0);
    }

    /**
     * True when {@code reader} can read {@code routed}, the gradient that max pooling's gradient {@code poolGrad}
     * routes through relu (gated by the pool's cells), straight from the cells and the pooled gradient
     * ({@link Kernels#readsPooledGradient}): a bias gradient (the sum over every axis but the channels) or a
     * convolution's filter gradient taking it as dy.
     */
    public static boolean readsRouted(Node reader, Node routed, Node poolGrad, Kernels kernels) {
        return switch (reader.op()) {
            case REDUCE -> reader.input(0) == routed
                    && sumsChannels(reader.attrs(ReduceAttrs.class), routed.shape().rank())
                    && kernels.readsPooledGradient(null, poolGeometry(poolGrad));
            case CONV2D_GRAD_FILTER -> reader.input(1) == routed && reader.input(0) != routed
                    && kernels.readsPooledGradient(ConvGeometry.of(reader.input(0).shape(), reader.shape(),
                            reader.attrs(ConvGradAttrs.class).conv()), poolGeometry(poolGrad));
            default -> false;
        };
    }

    private static PoolGeometry poolGeometry(Node poolGrad) {
        PoolGradAttrs attrs = poolGrad.attrs(PoolGradAttrs.class);
        return PoolGeometry.of(attrs.resultShape(), attrs.pool());
    }

    /** True for a sum over every axis but the last (a bias gradient). */
    private static boolean sumsChannels(ReduceAttrs a, int rank) {
        boolean[] mask = ShapeInference.reduceMask(rank, a.axes());
        for (int d = 0; d < rank; d++) {
            if (mask[d] != (d < rank - 1)) {
                return false;
            }
        }
        return a.fn() == ReduceFn.SUM;
    }
}
