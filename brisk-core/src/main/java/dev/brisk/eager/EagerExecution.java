package dev.brisk.eager;

import dev.brisk.backend.EagerBuffers;
import dev.brisk.backend.KernelTimer;
import dev.brisk.backend.Kernels;
import dev.brisk.exec.ChainLinks;
import dev.brisk.ops.Node;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * How an eager graph (the graph package's {@code Graph}) runs its ops as they are added: each at once, except inside
 * {@code Graph.fusing} blocks, where the chain a compiled plan would fuse is held back ({@link EagerChain}) and run as one call, and the
 * nodes it folds away are computed later only if something reads them.
 */
public final class EagerExecution {
    private final Kernels kernels;
    private final EagerBuffers buffers;
    private final KernelTimer timer;
    private int fusingDepth;
    private EagerChain pending;
    /** Nodes a fused call computed past without keeping their value, each with {@link #sideEffectsRun} by then. */
    private final Map<Node, Integer> foldedAway = new IdentityHashMap<>();
    private int sideEffectsRun;

    /** Runs ops on {@code kernels}, in storage from {@code buffers}, telling {@code timer} (or null) each call. */
    public EagerExecution(Kernels kernels, EagerBuffers buffers, KernelTimer timer) {
        this.kernels = kernels;
        this.buffers = buffers;
        this.timer = timer;
    }

    /** {@code Graph.fusing} for an eager graph with fusion on: runs {@code body}, holding back fusable chains. */
    public <T> T fusing(Supplier<T> body) {
        fusingDepth++;
        boolean finished = false;
        T result;
        try {
            result = body.get();
            finished = true;
        } finally {
            fusingDepth--;
            if (!finished) {
                pending = null;
            }
        }
        if (fusingDepth == 0 || exposesInside(result)) {
            flush(false, fusingDepth == 0);
            forEachNode(result, this::materialize);
        }
        return result;
    }

    /** {@code Graph.settle}: computes {@code n} now if a pending chain would fold it away. */
    public void settle(Node n) {
        if (pending != null && pending.nodes().contains(n)) {
            flush(n != pending.last(), false);
        }
        materialize(n);
    }

    /**
     * True when {@code result} holds a node of the held-back chain other than its last, whose value a fused call would
     * not keep.
     */
    private boolean exposesInside(Object result) {
        if (pending == null) {
            return false;
        }
        boolean[] inside = {false};
        forEachNode(result, n -> inside[0] |= n != pending.last() && pending.nodes().contains(n));
        return inside[0];
    }

    /** Calls {@code action} on {@code result} if it is a node, or on each node of an array or iterable of them. */
    private static void forEachNode(Object result, Consumer<Node> action) {
        if (result instanceof Node n) {
            action.accept(n);
        } else if (result instanceof Node[] array) {
            for (Node n : array) {
                action.accept(n);
            }
        } else if (result instanceof Iterable<?> items) {
            for (Object o : items) {
                if (o instanceof Node n) {
                    action.accept(n);
                }
            }
        }
    }

    /** Runs {@code n}, just added to the graph: now, or as a link of the chain held back. */
    public void run(Node n) {
        if (pending != null) {
            if (pending.tryAppend(n, kernels)) {
                return;
            }
            if (!pending.isReadInsideBy(n) && pending.routes(n, kernels)) {
                for (Node in : n.inputs()) {
                    if (!pending.nodes().contains(in)) {
                        materialize(in);
                    }
                }
                EagerRunner.runRouted(n, pending.nodes(), pending.gate(), kernels, buffers, timer);
                pending.markReadRouted();
                return;
            }
            // An op that neither reads the chain nor changes a variable may run before it.
            if (n.isSideEffect() || pending.isReadBy(n)) {
                flush(pending.isReadInsideBy(n), false);
            }
        }
        for (Node in : n.inputs()) {
            materialize(in);
        }
        if (pending == null && fusingDepth > 0 && ChainLinks.anchors(n)) {
            pending = new EagerChain(n);
            return;
        }
        if (n.isSideEffect()) {
            sideEffectsRun++;
        }
        EagerRunner.run(n, kernels, buffers, timer);
    }

    /**
     * Runs the held-back chain: as one fused call, or node by node when a reader needs a value inside it. At the end
     * of a block ({@code blockEnds}), a chain that readers have read routed from the pool's cells does not run: its
     * nodes are left to be computed if anything reads them later.
     */
    private void flush(boolean nodeByNode, boolean blockEnds) {
        EagerChain chain = pending;
        if (chain == null) {
            return;
        }
        pending = null;
        List<Node> links = chain.nodes();
        if (blockEnds && chain.readRouted()) {
            for (Node n : links) {
                foldedAway.put(n, sideEffectsRun);
            }
            return;
        }
        boolean fused = !nodeByNode && links.size() > 1;
        Node anchor = links.get(0);
        for (Node n : links) {
            for (Node in : n.inputs()) {
                // A relu gradient gated by the pool's cells does not read the pooled input in the fused call.
                boolean readByCall = !(fused && n == chain.gate() && ChainLinks.gatedByCells(anchor, n)
                        && in == n.input(0));
                if (readByCall) {
                    materialize(in);
                }
            }
        }
        if (!fused) {
            for (Node n : links) {
                EagerRunner.run(n, kernels, buffers, timer);
            }
            return;
        }
        EagerRunner.runChain(links, chain.bias(), chain.activation(), chain.gate(), kernels, buffers, timer);
        for (Node n : links.subList(0, links.size() - 1)) {
            foldedAway.put(n, sideEffectsRun);
        }
    }

    /** Gives a node folded into a fused call its own value, computed from its inputs. */
    private void materialize(Node n) {
        Integer sideEffectsThen = foldedAway.remove(n);
        if (sideEffectsThen == null) {
            return;
        }
        if (sideEffectsThen != sideEffectsRun) {
            throw new IllegalStateException("node " + n + " (layer '" + n.scope() + "') was computed inside a fused"
                    + " kernel call without keeping its value, and a variable has changed since, so it cannot be"
                    + " computed again; read it inside the same Graph.fusing block, or run with -Dbrisk.fusion=false");
        }
        for (Node in : n.inputs()) {
            materialize(in);
        }
        EagerRunner.run(n, kernels, buffers, timer);
    }
}
