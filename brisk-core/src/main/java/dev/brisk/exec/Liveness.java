package dev.brisk.exec;

import dev.brisk.ops.Node;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lifetime of every live value: the node whose storage it is (a reshape or a leading-axis slice is a view of its input's
 * storage, {@link Views}, so its root is its input's root) and the id of the last node that reads that storage. A read by a node folded into
 * a fused chain counts where the chain runs, since the chain's kernel call is what reads it. A plan output's
 * storage is read after the plan has run, so its last reader is {@link #PINNED}.
 */
final class Liveness {
    /** The last reader of storage that outlives the plan's run (a plan output). */
    static final int PINNED = Integer.MAX_VALUE;

    private final Map<Node, Node> root;
    private final int[] lastReader;

    private Liveness(Map<Node, Node> root, int[] lastReader) {
        this.root = root;
        this.lastReader = lastReader;
    }

    /** The lifetimes of the live nodes of {@code nodes}, reading through {@code fusion}'s chains. */
    static Liveness of(List<Node> nodes, boolean[] live, Fusion fusion, List<Node> outputs) {
        Map<Node, Node> root = new IdentityHashMap<>();
        int[] lastReader = new int[nodes.size()];
        for (Node n : nodes) {
            if (!live[n.id()]) {
                continue;
            }
            Node inRoot = n.inputs().isEmpty() ? null : root.get(n.input(0));
            root.put(n, inRoot != null && Views.viewsInput(n, inRoot) ? inRoot : n);
            lastReader[n.id()] = n.id();
            int at = fusion.runsAt(n).id();
            for (Node in : n.inputs()) {
                Node r = root.get(in);
                lastReader[r.id()] = Math.max(lastReader[r.id()], at);
            }
        }
        for (Node out : outputs) {
            lastReader[root.get(out).id()] = PINNED;
        }
        return new Liveness(root, lastReader);
    }

    /** The node that owns {@code n}'s storage: {@code n} itself, or for a view the node it views. */
    Node storageRoot(Node n) {
        return root.get(n);
    }

    /**
     * The id of the last node that reads the storage {@code n} owns ({@code n}'s own id when nothing reads it),
     * or {@link #PINNED}; meaningful for storage roots.
     */
    int lastReader(Node n) {
        return lastReader[n.id()];
    }
}
