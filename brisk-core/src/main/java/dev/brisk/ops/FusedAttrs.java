package dev.brisk.ops;

import java.util.List;

/**
 * The attributes of a node that stands for several nodes run as one kernel call (see the planner's fusion): the
 * nodes in the order they compute, the first being the anchor whose op and attributes the call is named after.
 * Such a node describes a compiled instruction (for profiles and error messages); it is never part of a graph.
 */
public record FusedAttrs(List<Node> nodes) implements Attrs {
    public FusedAttrs {
        nodes = List.copyOf(nodes);
    }

    /** The node whose kernel does the main work (a convolution, a product, a pooling gradient). */
    public Node anchor() {
        return nodes.get(0);
    }
}
