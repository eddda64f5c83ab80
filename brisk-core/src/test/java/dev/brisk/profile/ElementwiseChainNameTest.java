package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Backends;
import dev.brisk.exec.Plan;
import dev.brisk.exec.Planner;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A general elementwise chain appears in profiles as one call named after its parts, with their FLOPs summed. */
class ElementwiseChainNameTest {
    @Test
    void swishWithABiasIsNamedAfterItsParts() {
        Graph g = Graph.symbolic(Backends.get());
        Node x = g.input("x", Shape.of(6, 10));
        Node b = g.input("b", Shape.of(10));
        Node z = g.add(g.unary(UnaryFn.SIGMOID, x), b);
        Node y = g.mul(x, z);
        Plan plan = Planner.compile(g.nodes(), List.of(y), Backends.get(), true);
        List<OpInfo> calls = plan.instructionNodes().stream().map(OpInfo::of).toList();
        assertEquals(1, calls.size(), calls.toString());
        assertEquals("UNARY(SIGMOID)+BINARY(ADD)+BINARY(MUL)", calls.get(0).op());
        assertEquals(3 * 60, calls.get(0).flops());
        assertEquals("(6, 10), (10,) -> (6, 10)", calls.get(0).shapes());
    }
}
