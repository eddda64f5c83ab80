package dev.brisk.graph;

import dev.brisk.exec.ChainLinks;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.UnaryAttrs;
import java.util.ArrayList;
import java.util.List;

/**
 * A chain an eager graph holds back inside {@link Graph#fusing}: a product or convolution that may still be followed
 * by its bias add and activation, or max pooling's gradient that may still be followed by an activation's gradient.
 * The graph runs it as one fused kernel call once something reads its last node (see {@link ChainLinks}).
 */
final class EagerChain {
    private final List<Node> nodes = new ArrayList<>(3);
    private Node bias;
    private Node activation;
    private Node gate;

    EagerChain(Node anchor) {
        nodes.add(anchor);
    }

    /** Makes {@code n} the chain's next link and returns true if it can be one; false leaves the chain as it was. */
    boolean tryAppend(Node n) {
        Node anchor = nodes.get(0);
        if (anchor.op() == OpType.MAX_POOL_GRAD) {
            if (gate == null && ChainLinks.gates(n, anchor)) {
                gate = n;
                nodes.add(n);
                return true;
            }
            return false;
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
        if (ChainLinks.activates(n, last()) && !Autodiff.unaryGradientReadsInput(((UnaryAttrs) n.attrs()).fn())) {
            activation = n;
            nodes.add(n);
            return true;
        }
        return false;
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
