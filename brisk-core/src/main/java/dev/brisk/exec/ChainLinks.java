package dev.brisk.exec;

import dev.brisk.backend.BinaryFn;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
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
     * The per-channel bias that {@code add} adds to {@code product}'s output (a rank-1 node as long as the last
     * axis), or null when {@code add} is not such an add.
     */
    public static Node biasOf(Node add, Node product) {
        if (add.op() != OpType.BINARY || ((BinaryAttrs) add.attrs()).fn() != BinaryFn.ADD
                || !add.shape().equals(product.shape())) {
            return null;
        }
        Node other = add.input(0) == product ? add.input(1) : add.input(1) == product ? add.input(0) : null;
        boolean perChannel = other != null && other != product && other.shape().rank() == 1
                && other.shape().dim(0) == product.shape().dim(-1);
        return perChannel ? other : null;
    }

    /** True when {@code unary} is an activation applied elementwise to {@code x}, which the call computing x can do. */
    public static boolean activates(Node unary, Node x) {
        return unary.op() == OpType.UNARY && unary.input(0) == x && unary.shape().size() == x.shape().size();
    }

    /** True when {@code gate} is an activation's gradient taking max pooling's gradient {@code poolGrad} as dy. */
    public static boolean gates(Node gate, Node poolGrad) {
        return gate.op() == OpType.BINARY && GATES.contains(((BinaryAttrs) gate.attrs()).fn())
                && gate.input(1) == poolGrad && gate.input(0) != poolGrad
                && gate.input(0).shape().equals(poolGrad.shape()) && gate.shape().equals(poolGrad.shape());
    }
}
