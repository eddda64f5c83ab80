package dev.brisk.exec;

import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import java.util.ArrayList;
import java.util.List;

/**
 * One fused chain, as the planner's fusion pass finds it and an eager graph builds it: {@code nodes} in the order
 * they compute (the anchor first); only the last one's value exists. {@code bias} (or null) is the bias the chain adds, {@code activation} (or null) its unary node, and
 * for a gated pooling gradient {@code gate} is the activation gradient's node, for a product the binary op applied
 * to it ({@link dev.brisk.backend.Kernels#gemmBinary}). {@code kept} (or null) is
 * an inner node whose value the call writes too, in a buffer of its own: a product's pre-activation that the
 * activation's gradient reads ({@link dev.brisk.backend.Kernels#gemmBiasActivationKeepingInput}).
 */
public record FusedChain(List<Node> nodes, Node bias, Node activation, Node gate, Node kept) {
    /** A chain in which only the last node's value exists. */
    public FusedChain(List<Node> nodes, Node bias, Node activation, Node gate) {
        this(nodes, bias, activation, gate, null);
    }

    /** The product, convolution or pooling gradient the chain starts from. */
    public Node anchor() {
        return nodes.get(0);
    }

    /**
     * True for a general elementwise chain ({@link dev.brisk.backend.Kernels#elementwiseChain}): unary and binary
     * ops only, none of them a product's bias, an activation ending a special chain or a gate.
     */
    public boolean elementwise() {
        OpType op = anchor().op();
        return bias == null && activation == null && gate == null && nodes.size() > 1
                && (op == OpType.UNARY || op == OpType.BINARY);
    }

    /** The node whose value the chain computes. */
    public Node last() {
        return nodes.get(nodes.size() - 1);
    }

    /** The node that names this chain in profiles: the anchor's op, with every node listed in its attributes. */
    public Node describe() {
        return describe(nodes);
    }

    /** The node naming the call in which {@code reader} routes this chain's value from the pool's cells. */
    public Node describeReadBy(Node reader) {
        List<Node> parts = new ArrayList<>(nodes);
        parts.add(reader);
        return describe(parts);
    }

    private static Node describe(List<Node> nodes) {
        List<Node> inputs = new ArrayList<>();
        for (Node n : nodes) {
            for (Node in : n.inputs()) {
                if (!nodes.contains(in) && !inputs.contains(in)) {
                    inputs.add(in);
                }
            }
        }
        Node a = nodes.get(0);
        Node last = nodes.get(nodes.size() - 1);
        return new Node(a.id(), a.op(), new FusedAttrs(nodes), inputs, last.shape(), a.scope(), null);
    }
}

