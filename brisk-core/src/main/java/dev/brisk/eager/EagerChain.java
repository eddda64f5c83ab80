package dev.brisk.eager;

import dev.brisk.backend.Kernels;
import dev.brisk.exec.ChainLinks;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import java.util.ArrayList;
import java.util.List;

/**
 * A chain an eager graph holds back inside {@code Graph.fusing}: a product or convolution that may still be followed
 * by its bias add and activation (and a convolution by max pooling, a product by a binary op with an operand of its
 * shape, {@link ChainLinks#combinesProduct}), or max pooling's gradient that may still be
 * followed by an activation's gradient. The graph runs it as one fused kernel call once something reads its last
 * node (see {@link ChainLinks}), unless every reader reads it {@link #routes routed} from the pool's cells.
 */
final class EagerChain {
    private final List<Node> nodes = new ArrayList<>(3);
    private Node bias;
    private Node activation;
    private Node gate;
    private Node pool;
    private boolean readRouted;

    EagerChain(Node anchor) {
        nodes.add(anchor);
    }

    /** Makes {@code n} the chain's next link and returns true if it can be one; false leaves the chain as it was. */
    boolean tryAppend(Node n, Kernels kernels) {
        Node anchor = nodes.get(0);
        if (anchor.op() == OpType.MAX_POOL_GRAD) {
            if (gate == null && ChainLinks.gates(n, anchor)) {
                gate = n;
                nodes.add(n);
                return true;
            }
            return false;
        }
        if (pool != null || gate != null) {
            return false;
        }
        // Only after no activation or relu: any other activation's gradient reads its output, which the pooled call
        // does not write (relu's gradient under a pooling gradient comes from the pool's cells instead).
        boolean reluOrNone = activation == null || ((UnaryAttrs) activation.attrs()).fn() == UnaryFn.RELU;
        if (reluOrNone && ChainLinks.poolsInCache(anchor, last(), activation, n, kernels)) {
            pool = n;
            nodes.add(n);
            return true;
        }
        // A binary op of the product's value and an operand of its shape, as a plan runs it in the gemm's epilogue
        // (its operand must not be a value the fused call does not keep).
        if (anchor.op() == OpType.MATMUL && ChainLinks.combinesProduct(n, last()) && !isReadInsideBy(n)) {
            gate = n;
            nodes.add(n);
            return true;
        }
        if (activation != null) {
            return false;
        }
        Node addedBias = nodes.size() == 1 ? ChainLinks.biasOf(n, anchor) : null;
        if (addedBias != null) {
            bias = addedBias;
            nodes.add(n);
            return true;
        }
        // An activation whose gradient reads its input would need the value the fused call does not keep.
        if (ChainLinks.activates(n, last()) && !((UnaryAttrs) n.attrs()).fn().gradientReadsInput()) {
            activation = n;
            nodes.add(n);
            return true;
        }
        return false;
    }

    /**
     * True when {@code reader} can compute itself from what this gated pooling gradient chain reads (the pool's cells
     * and the pooled gradient), without the chain's value: see {@link ChainLinks#readsRouted}.
     */
    boolean routes(Node reader, Kernels kernels) {
        Node anchor = nodes.get(0);
        return anchor.op() == OpType.MAX_POOL_GRAD && ChainLinks.gatedByCells(anchor, gate)
                && ChainLinks.readsRouted(reader, last(), anchor, kernels) && poolsAFirstConvolution(anchor);
    }

    /**
     * True when the pooling under {@code poolGrad} pools (through elementwise ops) a convolution of a leaf that is
     * not a variable (the data): no gradient goes on past that convolution, so its bias and filter gradients are
     * likely the chain's only readers. Elsewhere a plan computes the gradient anyway (for the convolution's input
     * gradient), and reading it routed as well would only add work.
     */
    private static boolean poolsAFirstConvolution(Node poolGrad) {
        Node n = poolGrad.input(0).input(0);
        for (int hops = 0; hops < 4 && n.op() != OpType.CONV2D; hops++) {
            Node next = null;
            for (Node in : n.inputs()) {
                if (next == null && in.shape().equals(n.shape())) {
                    next = in;
                }
            }
            if (next == null || (n.op() != OpType.UNARY && n.op() != OpType.BINARY)) {
                return false;
            }
            n = next;
        }
        Node x = n.input(0);
        return n.op() == OpType.CONV2D && x.inputs().isEmpty() && x.variable() == null;
    }

    /** Records that a reader computed itself from the chain's inputs ({@link #routes}). */
    void markReadRouted() {
        readRouted = true;
    }

    /** True once a reader has read the chain routed: if none reads it otherwise, it need not run at all. */
    boolean readRouted() {
        return readRouted;
    }

    /** True when {@code n} reads any node of the chain. */
    boolean isReadBy(Node n) {
        for (Node in : n.inputs()) {
            if (nodes.contains(in)) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code n} reads a node of the chain before its last, whose value a fused call would not keep. */
    boolean isReadInsideBy(Node n) {
        for (Node in : n.inputs()) {
            if (in != last() && nodes.contains(in)) {
                return true;
            }
        }
        return false;
    }

    List<Node> nodes() {
        return nodes;
    }

    Node last() {
        return nodes.get(nodes.size() - 1);
    }

    Node bias() {
        return bias;
    }

    Node activation() {
        return activation;
    }

    Node gate() {
        return gate;
    }
}
