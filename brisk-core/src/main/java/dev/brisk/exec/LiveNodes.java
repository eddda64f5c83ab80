package dev.brisk.exec;

import dev.brisk.ops.Node;
import java.util.List;

/**
 * The first planner pass: which nodes a plan must run. A node is live when it is an output, a side effect (a
 * variable update or assignment), or an input of a live node; everything else is dropped from the plan.
 */
final class LiveNodes {
    private LiveNodes() {
    }

    /**
     * Marks, by node id, the nodes of {@code nodes} (in creation order, so inputs precede users) that
     * {@code outputs} or a side effect needs.
     */
    static boolean[] of(List<Node> nodes, List<Node> outputs) {
        boolean[] live = new boolean[nodes.size()];
        for (Node o : outputs) {
            live[o.id()] = true;
        }
        for (Node n : nodes) {
            if (n.isSideEffect()) {
                live[n.id()] = true;
            }
        }
        // Users follow their inputs, so one backward sweep reaches every input of a live node.
        for (int i = nodes.size() - 1; i >= 0; i--) {
            if (live[i]) {
                for (Node in : nodes.get(i).inputs()) {
                    live[in.id()] = true;
                }
            }
        }
        return live;
    }
}
