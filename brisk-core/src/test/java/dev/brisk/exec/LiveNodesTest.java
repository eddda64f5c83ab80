package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveNodesTest {
    @Test
    void keepsWhatOutputsAndSideEffectsNeedAndDropsTheRest() {
        Graph g = Graph.symbolic(Backends.get());
        Node x = g.input("x", Shape.of(4));
        Node a = g.scale(x, 2f);
        Node out = g.scale(a, 3f);
        Node unused = g.scale(x, 5f);
        Variable v = new Variable("v", Tensor.zeros(4), false);
        Node written = g.scale(x, 7f);
        Node assign = g.assign(v, written);
        boolean[] live = LiveNodes.of(g.nodes(), List.of(out));
        assertTrue(live[out.id()], "an output");
        assertTrue(live[a.id()], "an input of an output");
        assertTrue(live[x.id()], "an input two steps up");
        assertTrue(live[assign.id()], "a side effect, though no output reads it");
        assertTrue(live[written.id()], "the value a side effect writes");
        assertFalse(live[unused.id()], "read by nothing");
    }
}
