package dev.brisk.exec;

import dev.brisk.backend.Kernels;
import dev.brisk.config.Setting;
import dev.brisk.config.Settings;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the chains of nodes that the planner runs as one kernel call, so that elementwise work is done while a
 * kernel's output is still in cache instead of in separate passes over memory:
 * <ul>
 *   <li>a convolution or matrix product, then the add of a per-channel bias, then an activation (either part may
 *       be missing), as {@link dev.brisk.backend.Kernels#conv2dBiasActivation} or
 *       {@link dev.brisk.backend.Kernels#gemmBiasActivation}; a convolution's chain may end in the max pooling of
 *       its output when the backend pools it in cache ({@link Kernels#poolsConvolutionInCache}) and nothing else
 *       needs that output: its pooling gradient reads the pool's cells, and a relu gradient gating that gradient
 *       reads them too (see {@link #gatedByCells}), so the output is never written;</li>
 *   <li>max pooling's gradient, then the gradient of the activation before it, as
 *       {@link dev.brisk.backend.Kernels#maxPool2dBackwardGated}; when that is relu's gradient decided by the
 *       pool's cells and its only readers are a convolution's filter gradient and the per-channel sums of a bias
 *       gradient that the backend can read straight from the cells and the pooled gradient
 *       ({@link Kernels#readsPooledGradient}), the chain is made by no call at all: each reader routes the
 *       gradient itself as it reads it (a first convolution's 11 MB gradient in W2 is never written);</li>
 *   <li>a batch normalization, then an activation, as {@link Kernels#batchNorm} with that activation applied to
 *       each chunk of rows while it is in cache, or then a binary op with an operand of its shape and that op's
 *       activation (a residual add and relu), as {@link Kernels#batchNormBinary}; and backward, relu's gradient whose only readers are a batch
 *       normalization's two gradients: it gets no call, and each of them gates dy by relu's output as it reads it
 *       ({@link ChainLinks#gatesBatchNormGradient});</li>
 *   <li>a matrix product, its bias, and an activation whose gradient reads the activation's input, which the call
 *       writes too ({@link Kernels#gemmBiasActivationKeepingInput}): the activation's pass over it is saved;</li>
 *   <li>a matrix product's chain (bias and activation included) read, through reshapes, only by a binary op with an
 *       operand of its shape (a residual add, an activation's gradient of dy, a sum of gradient contributions), as
 *       {@link Kernels#gemmBinary};</li>
 *   <li>a binary op of two same-shape operands (a residual add), then an activation, as
 *       {@link Kernels#binaryActivation}, block by block in cache;</li>
 *   <li>last, from what those leave, any chain of unary and binary ops of one shape whose other operands are read
 *       whole, as a row or as one value (swish as {@code x * sigmoid(x)}, a gate, scale and shift, the products and
 *       sums of a gradient), as {@link Kernels#elementwiseChain}, all its ops over each block in cache.</li>
 * </ul>
 * A node is folded into the next one only when that is its one reader and it is not an output, so its value is
 * never needed (relu's gradient reads relu's output, not its input, so that a relu's input can be folded away too:
 * see {@code Autodiff}). Fusion changes how many passes run, never the arithmetic of an element: the
 * fused kernels give the same bits. Eager graphs run the same chains as one call when they are built inside
 * {@code Graph.fusing} (see {@link EagerRunner#runChain}).
 */
public final class Fusion {
    /** The system property that turns fusion off ({@code -Dbrisk.fusion=false}), to compare against. */
    static final String PROPERTY = Setting.FUSION.property();

    private final Map<Node, FusedChain> groupOf = new IdentityHashMap<>();
    /** The readers of a routed pooling gradient, each with the chain it reads from the pool's cells. */
    private final Map<Node, FusedChain> routedFor = new IdentityHashMap<>();
    /** Each routed chain's reader that runs last, where the chain's inputs must still be alive. */
    private final Map<FusedChain, Node> lastReader = new IdentityHashMap<>();

    private Fusion() {
    }

    /** No fusion: every node runs on its own. */
    static Fusion none() {
        return new Fusion();
    }

    /** True unless the {@code brisk.fusion} system property is {@code false}. */
    public static boolean enabledByDefault() {
        return Settings.fusion();
    }

    /**
     * Finds the chains among the {@code live} nodes; {@code outputs} are never folded away, and {@code kernels}
     * says which convolutions it can pool in cache.
     */
    static Fusion find(List<Node> nodes, boolean[] live, List<Node> outputs, Kernels kernels) {
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
        // Pooling gradients first: whether a convolution's output may go unwritten depends on how they are fused.
        for (boolean poolGradients : new boolean[] {true, false}) {
            for (Node n : nodes) {
                boolean anchor = poolGradients ? n.op() == OpType.MAX_POOL_GRAD
                        : n.op() == OpType.CONV2D || n.op() == OpType.MATMUL || n.op() == OpType.BATCH_NORM
                        || ChainLinks.elementwiseAnchor(n);
                if (!anchor || !live[n.id()] || f.groupOf.containsKey(n)) {
                    continue;
                }
                FusedChain g = poolGradients ? gatedPoolGradient(n, readers, kept)
                        : epilogueChain(n, readers, kept, f, kernels);
                // The chain runs where its last node is: no variable may change in between.
                if (g != null && sideEffectsBefore[g.last().id()] == sideEffectsBefore[n.id()]) {
                    f.add(g);
                }
            }
        }
        for (Node n : nodes) {
            FusedChain g = f.groupOf.get(n);
            if (g != null && g.anchor() == n && n.op() == OpType.MAX_POOL_GRAD) {
                f.routeToReaders(g, readers, kept, kernels);
            }
        }
        for (Node n : nodes) {
            if (live[n.id()] && !f.groupOf.containsKey(n)) {
                f.gateBatchNormGradients(n, readers, kept);
            }
        }
        // Last, general elementwise chains take what the special chains left (and a binary op's chain with its
        // activation, which they extend), each from its first node: a node reads only earlier ones, so a chain's
        // first node comes before its others.
        for (Node n : nodes) {
            FusedChain special = f.groupOf.get(n);
            if (live[n.id()] && ChainLinks.elementwise(n) && (special == null || extendable(special, n))) {
                FusedChain g = f.elementwiseChain(n, special, readers, kept, sideEffectsBefore);
                if (g != null) {
                    f.add(g);
                }
            }
        }
        return f;
    }

    /**
     * Lets the readers of gated pooling gradient {@code g} route it from the pool's cells themselves, if every one
     * of them can: a bias gradient (the sum over all axes but the channels) or a convolution's filter gradient
     * taking it as dy. The chain's inputs (the cells and the pooled gradient) are not variables, so the readers may
     * run after updates.
     */
    private void routeToReaders(FusedChain g, List<List<Node>> readers, boolean[] kept, Kernels kernels) {
        Node routed = g.last();
        List<Node> users = readers.get(routed.id());
        if (!gatedByCells(g) || kept[routed.id()] || users.isEmpty()) {
            return;
        }
        Node last = null;
        for (Node r : users) {
            if (!ChainLinks.readsRouted(r, routed, g.anchor(), kernels)) {
                return;
            }
            last = last == null || r.id() > last.id() ? r : last;
        }
        for (Node r : users) {
            routedFor.put(r, g);
        }
        lastReader.put(g, last);
    }

    /**
     * Lets the readers of relu's gradient {@code gate} take it on the fly, if every one of them is a batch
     * normalization gradient that can ({@link ChainLinks#gatesBatchNormGradient}): the gradient then gets no call
     * and no buffer, and its inputs (relu's output and the upstream gradient, computed values rather than
     * variables) stay alive until its last reader has run.
     */
    private void gateBatchNormGradients(Node gate, List<List<Node>> readers, boolean[] kept) {
        List<Node> users = readers.get(gate.id());
        if (kept[gate.id()] || users.isEmpty()) {
            return;
        }
        Node last = null;
        for (Node r : users) {
            if (!ChainLinks.gatesBatchNormGradient(r, gate)) {
                return;
            }
            last = last == null || r.id() > last.id() ? r : last;
        }
        FusedChain g = new FusedChain(List.of(gate), null, null, gate);
        add(g);
        for (Node r : users) {
            routedFor.put(r, g);
        }
        lastReader.put(g, last);
    }

    /**
     * A product or convolution, then optionally {@code + bias}, then optionally an activation, and for a convolution
     * optionally max pooling ({@link #pooling}).
     */
    private static FusedChain epilogueChain(Node anchor, List<List<Node>> readers, boolean[] kept, Fusion found,
                                       Kernels kernels) {
        List<Node> chain = new ArrayList<>(List.of(anchor));
        Node cur = anchor;
        // A batch normalization's call and an elementwise op's take an activation but no bias.
        boolean takesBias = anchor.op() == OpType.CONV2D || anchor.op() == OpType.MATMUL;
        Node next = takesBias ? soleReader(cur, readers, kept) : null;
        Node bias = next == null ? null : ChainLinks.biasOf(next, cur);
        if (bias != null) {
            chain.add(next);
            cur = next;
        }
        Node activation = soleReader(cur, readers, kept);
        if (activation != null && ChainLinks.activates(activation, cur)) {
            chain.add(activation);
            cur = activation;
        } else if (anchor.op() == OpType.BATCH_NORM) {
            return normalizedBinary(chain, readers, kept, found);
        } else if (anchor.op() == OpType.MATMUL && (activation = keptActivation(cur, readers, kept)) != null) {
            chain.add(activation);
            return new FusedChain(chain, bias, activation, null, cur);
        } else {
            activation = null;
        }
        if (anchor.op() == OpType.CONV2D) {
            Node pool = pooling(anchor, cur, activation, readers, kept, found, kernels);
            if (pool != null) {
                chain.add(pool);
            }
        }
        if (anchor.op() == OpType.MATMUL) {
            FusedChain combined = combinedProduct(chain, bias, activation, readers, kept, found);
            if (combined != null) {
                return combined;
            }
        }
        return chain.size() == 1 ? null : new FusedChain(chain, bias, activation, null);
    }

    /**
     * A batch normalization whose one reader is a binary op with an operand of its shape, then that op's activation
     * if it has one (a residual network's {@code relu(bn(x) + shortcut)}), as {@link Kernels#batchNormBinary}: the
     * normalized values are never stored. The binary op is the chain's {@code gate}. Left to the other rules, as for
     * a product ({@link #combinedProduct}): a binary op that a general elementwise chain would take in, and one
     * another chain has taken.
     */
    private static FusedChain normalizedBinary(List<Node> chain, List<List<Node>> readers, boolean[] kept,
                                               Fusion found) {
        Node bn = chain.get(0);
        Node op = soleReader(bn, readers, kept);
        if (op == null || !ChainLinks.combinesProduct(op, bn) || found.groupOf.containsKey(op)) {
            return null;
        }
        Node other = op.input(0) == bn ? op.input(1) : op.input(0);
        Node before = soleReader(other, readers, kept);
        if (before == op && ChainLinks.elementwise(other) && ChainLinks.continuesElementwise(op, other)) {
            return null;
        }
        for (Node r : readers.get(op.id())) {
            if (ChainLinks.gatesBatchNormGradient(r, op)) {
                return null;
            }
        }
        List<Node> nodes = new ArrayList<>(chain);
        nodes.add(op);
        Node activation = soleReader(op, readers, kept);
        if (activation != null && ChainLinks.activates(activation, op)) {
            nodes.add(activation);
        } else {
            Node after = activation;
            if (after != null && ChainLinks.continuesElementwise(after, op)) {
                return null;
            }
            activation = null;
        }
        return new FusedChain(nodes, null, activation, op);
    }

    /**
     * The activation of {@code z} (a product's value, or its bias add) that the product's call can apply while
     * also writing {@code z}, which another reader needs (an activation's gradient reading its input, as gelu's
     * does): z is no output, the activation is one of its readers, and every other one comes after it, so none
     * reads z before the call has written it. Null when there is none.
     */
    private static Node keptActivation(Node z, List<List<Node>> readers, boolean[] kept) {
        if (kept[z.id()]) {
            return null;
        }
        Node activation = null;
        for (Node r : readers.get(z.id())) {
            if (activation == null && ChainLinks.activates(r, z)) {
                activation = r;
            }
        }
        if (activation == null) {
            return null;
        }
        for (Node r : readers.get(z.id())) {
            if (r != activation && r.id() < activation.id()) {
                return null;
            }
        }
        return activation;
    }

    /**
     * A product's chain (the product, then its bias and activation if it has them), any reshapes of its value that
     * are each its one reader, then a binary op of that value and an operand of its shape
     * ({@link ChainLinks#combinesProduct}): a residual add, an activation's gradient of the product that made dy, or
     * the sum of two gradient contributions, applied to each block of the product in cache
     * ({@link Kernels#gemmBinary}); the binary op is the chain's {@code gate}. Left to the other rules: a binary op
     * that a general elementwise chain would take in (its operand or its reader continues one), one whose readers
     * are batch normalization gradients that gate dy themselves, and one another product has taken.
     */
    private static FusedChain combinedProduct(List<Node> epilogue, Node bias, Node activation,
                                              List<List<Node>> readers, boolean[] kept, Fusion found) {
        List<Node> chain = new ArrayList<>(epilogue);
        Node cur = chain.get(chain.size() - 1);
        Node next = soleReader(cur, readers, kept);
        while (next != null && next.op() == OpType.RESHAPE) {
            chain.add(next);
            cur = next;
            next = soleReader(cur, readers, kept);
        }
        if (next == null || !ChainLinks.combinesProduct(next, cur) || found.groupOf.containsKey(next)) {
            return null;
        }
        Node other = next.input(0) == cur ? next.input(1) : next.input(0);
        Node after = soleReader(next, readers, kept);
        Node before = soleReader(other, readers, kept);
        if ((after != null && ChainLinks.continuesElementwise(after, next))
                || (before == next && ChainLinks.elementwise(other) && ChainLinks.continuesElementwise(next, other))) {
            return null;
        }
        for (Node r : readers.get(next.id())) {
            if (ChainLinks.gatesBatchNormGradient(r, next)) {
                return null;
            }
        }
        chain.add(next);
        return new FusedChain(chain, bias, activation, next);
    }

    /**
     * The MAX_POOL of {@code out} (the end of convolution {@code conv}'s chain) that may end the chain, or null:
     * the backend pools this convolution in cache, and every other reader of {@code out} is a relu gradient that a
     * pooling gradient group already found takes from the pool's cells, so {@code out} is needed nowhere.
     */
    private static Node pooling(Node conv, Node out, Node activation, List<List<Node>> readers, boolean[] kept,
                                Fusion found, Kernels kernels) {
        if (kept[out.id()]) {
            return null;
        }
        Node pool = null;
        for (Node r : readers.get(out.id())) {
            if (r.op() == OpType.MAX_POOL && r.input(0) == out && pool == null) {
                pool = r;
            }
        }
        if (pool == null) {
            return null;
        }
        for (Node r : readers.get(out.id())) {
            FusedChain g = found.groupOf.get(r);
            if (r != pool && !(g != null && g.gate() == r && gatedByCells(g))) {
                return null;
            }
        }
        return ChainLinks.poolsInCache(conv, out, activation, pool, kernels) ? pool : null;
    }

    /**
     * True for a pooling gradient group gated by relu's gradient of the pooled input itself: the pool's cells decide
     * it (the maximum, the cell it came from, is above zero), so that input is not read.
     */
    static boolean gatedByCells(FusedChain g) {
        return ChainLinks.gatedByCells(g.anchor(), g.gate());
    }

    /** Max pooling's gradient whose one reader is an activation gradient taking it as the upstream gradient. */
    private static FusedChain gatedPoolGradient(Node poolGrad, List<List<Node>> readers, boolean[] kept) {
        Node next = soleReader(poolGrad, readers, kept);
        return next != null && ChainLinks.gates(next, poolGrad)
                ? new FusedChain(List.of(poolGrad, next), null, null, next) : null;
    }

    /**
     * The longest chain of elementwise ops from {@code first} ({@link ChainLinks#continuesElementwise}) in which each
     * node but the last has the next as its one reader and is no output, with no variable update between its ends;
     * null when no node follows. A binary op and activation found as a chain of their own ({@code special} when it
     * starts at {@code first}) become part of this one, whose call does the same work block by block.
     */
    private FusedChain elementwiseChain(Node first, FusedChain special, List<List<Node>> readers, boolean[] kept,
                                        int[] sideEffectsBefore) {
        List<Node> chain = new ArrayList<>(special == null ? List.of(first) : special.nodes());
        int found = chain.size();
        Node cur = chain.get(found - 1);
        for (Node next = soleReader(cur, readers, kept); next != null && ChainLinks.continuesElementwise(next, cur)
                && sideEffectsBefore[next.id()] == sideEffectsBefore[first.id()];
                next = soleReader(cur, readers, kept)) {
            FusedChain taken = groupOf.get(next);
            if (routedFor.containsKey(next) || (taken != null && !extendable(taken, next))) {
                break;
            }
            if (taken != null) {
                remove(taken);
            }
            chain.add(next);
            cur = next;
        }
        if (chain.size() == found) {
            return null;
        }
        if (special != null) {
            remove(special);
        }
        return new FusedChain(chain, null, null, null);
    }

    /**
     * True when {@code g} is a binary op and its activation ({@link Kernels#binaryActivation}) starting at
     * {@code n}: a general elementwise chain can take both nodes in.
     */
    private static boolean extendable(FusedChain g, Node n) {
        return g.anchor() == n && n.op() == OpType.BINARY && g.nodes().size() == 2 && g.activation() == g.last()
                && g.bias() == null && g.gate() == null && ChainLinks.continuesElementwise(g.last(), n);
    }

    private void remove(FusedChain g) {
        for (Node n : g.nodes()) {
            groupOf.remove(n);
        }
    }

    /** The one node reading {@code x}, or null when there are several or {@code x} is an output. */
    private static Node soleReader(Node x, List<List<Node>> readers, boolean[] kept) {
        List<Node> r = readers.get(x.id());
        return !kept[x.id()] && r.size() == 1 ? r.get(0) : null;
    }

    private void add(FusedChain g) {
        for (Node n : g.nodes()) {
            groupOf.put(n, g);
        }
    }

    /**
     * True for a node whose work is done by a later node's fused call, or by the readers of a routed chain (it
     * gets no buffer and no call).
     */
    boolean absorbed(Node n) {
        FusedChain g = groupOf.get(n);
        return g != null && g.kept() != n && (g.last() != n || lastReader.containsKey(g));
    }

    /** True for an inner node of a chain whose call writes its value too ({@link FusedChain#kept}): a buffer, no call. */
    boolean writtenByChain(Node n) {
        FusedChain g = groupOf.get(n);
        return g != null && g.kept() == n;
    }

    /** The chain that {@code n} ends and whose call makes it, or null. */
    FusedChain endedBy(Node n) {
        FusedChain g = groupOf.get(n);
        return g != null && g.last() == n && !lastReader.containsKey(g) ? g : null;
    }

    /**
     * The chain that reader {@code n} computes as it reads it: a routed pooling gradient read from the pool's cells,
     * or relu's gradient taken by a batch normalization gradient; null for none.
     */
    FusedChain routedFor(Node n) {
        return routedFor.get(n);
    }

    /** Where the work of {@code n} runs: at the last node of its chain, or at a routed chain's last reader. */
    Node runsAt(Node n) {
        FusedChain g = groupOf.get(n);
        return g == null ? n : lastReader.getOrDefault(g, g.last());
    }

}
