package dev.brisk.ops;

import java.util.List;

/**
 * The attributes of a node that stands for several nodes run as one kernel call (see the planner's fusion): the
 * nodes in the order they compute, the first being the anchor whose op and attributes the call is named after.
 * Such a node describes a compiled instruction (for profiles and error messages); it is never part of a graph.
 *
 * @param nodes the fused nodes in compute order, the anchor first
 */
public record FusedAttrs(List<Node> nodes) implements Attrs {
    /**
     * Copies {@code nodes}, so the list cannot change afterwards.
     *
     * @param nodes the fused nodes in compute order, the anchor first
     */
    public FusedAttrs {
        nodes = List.copyOf(nodes);
    }

    /**
     * The node whose kernel does the main work (a convolution, a product, a pooling gradient).
     *
     * @return the first node
     */
    public Node anchor() {
        return nodes.get(0);
    }
}
