package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

class LivenessTest {
    @Test
    void aValueLivesUntilItsLastReaderAndAnOutputOutlivesThePlan() {
        Graph g = Graph.symbolic(Backends.get());
        Node x = g.input("x", Shape.of(4, 4));
        Node a = g.scale(x, 2f);
        Node b = g.scale(a, 3f);
        Node c = g.scale(b, 4f);
        Node d = g.add(a, c);
        Node unread = g.scale(d, 5f);
        Liveness liveness = of(g, List.of(d, unread));
        assertEquals(d.id(), liveness.lastReader(a), "a is read by b, then last by d");
        assertEquals(c.id(), liveness.lastReader(b), "b is read only by c");
        assertEquals(Liveness.PINNED, liveness.lastReader(d), "an output is read after the run");
        assertEquals(Liveness.PINNED, liveness.lastReader(unread), "an output no node reads");
    }

    @Test
    void aReshapeExtendsTheLifetimeOfTheStorageItViews() {
        Graph g = Graph.symbolic(Backends.get());
        Node x = g.input("x", Shape.of(4, 4));
        Node a = g.scale(x, 2f);
        Node view = g.reshape(a, Shape.of(16));
        Node b = g.scale(x, 3f);
        Node c = g.add(view, g.reshape(b, Shape.of(16)));
        Liveness liveness = of(g, List.of(c));
        assertSame(a, liveness.storageRoot(view), "a reshape owns no storage");
        assertSame(a, liveness.storageRoot(a));
        assertEquals(c.id(), liveness.lastReader(a), "the view's reader is the last reader of a's storage");
    }

    private static Liveness of(Graph g, List<Node> outputs) {
        boolean[] live = LiveNodes.of(g.nodes(), outputs);
        return Liveness.of(g.nodes(), live, Fusion.none(), outputs);
    }
}
