package dev.brisk.exec;

import dev.brisk.backend.BinaryFn;
import dev.brisk.backend.UnaryFn;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.UnaryAttrs;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the chains of nodes that the planner runs as one kernel call, so that elementwise work is done while a
 * kernel's output is still in cache instead of in separate passes over memory:
 * <ul>
 *   <li>a convolution or matrix product, then the add of a per-channel bias, then an activation (either part may
 *       be missing), as {@link dev.brisk.backend.Kernels#conv2dBiasActivation} or
 *       {@link dev.brisk.backend.Kernels#gemmBiasActivation};</li>
 *   <li>max pooling's gradient, then the gradient of the activation before it, as
 *       {@link dev.brisk.backend.Kernels#maxPool2dBackwardGated}.</li>
 * </ul>
 * A node is folded into the next one only when that is its one reader and it is not an output, so its value is
 * never needed. The exception is a relu's input, which the relu's gradient also reads: {@code relu'(z)} only asks
 * whether {@code z > 0}, which {@code relu(z) > 0} answers the same way (NaN included), so the gradient reads the
 * relu's output instead (see {@link #source}). Fusion changes how many passes run, never the arithmetic of an
 * element: the fused kernels give the same bits.
 */
final class Fusion {
    /** The system property that turns fusion off ({@code -Dbrisk.fusion=false}), to compare against. */
    static final String PROPERTY = "brisk.fusion";
    private static final Set<BinaryFn> GATES = Set.of(BinaryFn.RELU_GRAD, BinaryFn.LEAKY_RELU_GRAD,
            BinaryFn.SIGMOID_GRAD, BinaryFn.TANH_GRAD, BinaryFn.GELU_GRAD);

    /**
     * One fused chain: {@code nodes} in the order they compute (the anchor first); only the last one's value
     * exists. {@code bias} (or null) is the bias the chain adds, {@code activation} (or null) its unary node, and
     * for a gated pooling gradient {@code gate} is the activation gradient's node. {@code redirected} (or null) is
     * the relu input whose gradients read the relu's output instead.
     */
    record Group(List<Node> nodes, Node bias, Node activation, Node gate, Node redirected) {
        Node anchor() {
            return nodes.get(0);
        }

        Node last() {
            return nodes.get(nodes.size() - 1);
        }

        /** The node that names this chain in profiles: the anchor's op, with every node listed in its attributes. */
        Node describe(Fusion fusion) {
            List<Node> inputs = new ArrayList<>();
            for (Node n : nodes) {
                for (Node in : n.inputs()) {
                    Node src = fusion.source(in);
                    if (!nodes.contains(src) && !inputs.contains(src)) {
                        inputs.add(src);
                    }
                }
            }
            Node a = anchor();
            return new Node(a.id(), a.op(), new FusedAttrs(nodes), inputs, last().shape(), a.scope(), null);
        }
    }

    private final Map<Node, Group> groupOf = new IdentityHashMap<>();
    private final Map<Node, Node> substitutes = new IdentityHashMap<>();

    private Fusion() {
    }

    /** No fusion: every node runs on its own. */
    static Fusion none() {
        return new Fusion();
    }

    /** True unless the {@value #PROPERTY} system property is {@code false}. */
    static boolean enabledByDefault() {
        return !"false".equalsIgnoreCase(System.getProperty(PROPERTY));
    }

    /** Finds the chains among the {@code live} nodes; {@code outputs} are never folded away. */
    static Fusion find(List<Node> nodes, boolean[] live, List<Node> outputs) {
        List<List<Node>> readers = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            readers.add(new ArrayList<>(2));
        }
        for (Node n : nodes) {
            if (live[n.id()]) {
                for (Node in : n.inputs()) {
                    if (!readers.get(in.id()).contains(n)) {
                        readers.get(in.id()).add(n);
                    }
                }
            }
        }
        boolean[] kept = new boolean[nodes.size()];
        for (Node o : outputs) {
            kept[o.id()] = true;
        }
        int[] sideEffectsBefore = new int[nodes.size() + 1];
        for (int i = 0; i < nodes.size(); i++) {
            sideEffectsBefore[i + 1] = sideEffectsBefore[i] + (live[i] && nodes.get(i).isSideEffect() ? 1 : 0);
        }
        Fusion f = new Fusion();
        for (Node n : nodes) {
            if (!live[n.id()] || f.groupOf.containsKey(n)) {
                continue;
            }
            Group g = switch (n.op()) {
                case CONV2D, MATMUL -> epilogueChain(n, readers, kept);
                case MAX_POOL_GRAD -> gatedPoolGradient(n, readers, kept);
                default -> null;
            };
            // The chain runs where its last node is: no variable may change in between.
            if (g != null && sideEffectsBefore[g.last().id()] == sideEffectsBefore[n.id()]) {
                f.add(g);
            }
        }
        return f;
    }

    /** A product or convolution, then optionally {@code + bias}, then optionally an activation. */
    private static Group epilogueChain(Node anchor, List<List<Node>> readers, boolean[] kept) {
        List<Node> chain = new ArrayList<>(List.of(anchor));
        Node cur = anchor;
        Node bias = null;
        Node next = soleReader(cur, readers, kept);
        if (next != null && next.op() == OpType.BINARY && ((BinaryAttrs) next.attrs()).fn() == BinaryFn.ADD
                && next.shape().equals(cur.shape())) {
            Node other = next.input(0) == cur ? next.input(1) : next.input(0);
            int channels = cur.shape().dim(-1);
            if (other != cur && other.shape().rank() == 1 && other.shape().dim(0) == channels) {
                bias = other;
                chain.add(next);
                cur = next;
            }
        }
        Node activation = kept[cur.id()] ? null : activationReader(cur, readers.get(cur.id()));
        Node redirected = null;
        if (activation != null) {
            chain.add(activation);
            redirected = readers.get(cur.id()).size() > 1 ? cur : null;
        }
        return chain.size() == 1 ? null : new Group(chain, bias, activation, null, redirected);
    }

    /**
     * The unary node that is the one reader of {@code x} besides relu gradients reading {@code x} as the relu's
     * input (which can read the relu's output instead), or null.
     */
    private static Node activationReader(Node x, List<Node> xReaders) {
        Node unary = null;
        List<Node> gradients = new ArrayList<>();
        for (Node r : xReaders) {
            if (r.op() == OpType.UNARY && unary == null) {
                unary = r;
            } else if (r.op() == OpType.BINARY && ((BinaryAttrs) r.attrs()).fn() == BinaryFn.RELU_GRAD
                    && r.input(0) == x && r.input(1) != x) {
                gradients.add(r);
            } else {
                return null;
            }
        }
        if (unary == null || unary.shape().size() != x.shape().size()) {
            return null;
        }
        if (!gradients.isEmpty()) {
            if (((UnaryAttrs) unary.attrs()).fn() != UnaryFn.RELU) {
                return null;
            }
            for (Node grad : gradients) {
                if (grad.id() < unary.id()) {
                    return null;
                }
            }
        }
        return unary;
    }

    /** Max pooling's gradient whose one reader is an activation gradient taking it as the upstream gradient. */
    private static Group gatedPoolGradient(Node poolGrad, List<List<Node>> readers, boolean[] kept) {
        Node next = soleReader(poolGrad, readers, kept);
        if (next == null || next.op() != OpType.BINARY || !GATES.contains(((BinaryAttrs) next.attrs()).fn())
                || next.input(1) != poolGrad || next.input(0) == poolGrad
                || !next.input(0).shape().equals(poolGrad.shape()) || !next.shape().equals(poolGrad.shape())) {
            return null;
        }
        return new Group(List.of(poolGrad, next), null, null, next, null);
    }

    /** The one node reading {@code x}, or null when there are several or {@code x} is an output. */
    private static Node soleReader(Node x, List<List<Node>> readers, boolean[] kept) {
        List<Node> r = readers.get(x.id());
        return !kept[x.id()] && r.size() == 1 ? r.get(0) : null;
    }

    private void add(Group g) {
        for (Node n : g.nodes()) {
            groupOf.put(n, g);
        }
        if (g.redirected() != null) {
            substitutes.put(g.redirected(), g.activation());
        }
    }

    /** True for a node whose work is done by a later node's fused call (it gets no buffer and no call). */
    boolean absorbed(Node n) {
        Group g = groupOf.get(n);
        return g != null && g.last() != n;
    }

    /** The chain that {@code n} ends, or null. */
    Group endedBy(Node n) {
        Group g = groupOf.get(n);
        return g != null && g.last() == n ? g : null;
    }

    /** Where the work of {@code n} runs: at the last node of its chain. */
    Node runsAt(Node n) {
        Group g = groupOf.get(n);
        return g == null ? n : g.last();
    }

    /** The node whose value a reader of {@code n} reads: a relu's output for its folded-away input, else itself. */
    Node source(Node n) {
        return substitutes.getOrDefault(n, n);
    }
}
