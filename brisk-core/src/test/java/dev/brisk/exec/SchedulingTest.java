package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulingTest {
    private final Kernels k = Backends.get();

    @Test
    void instructionsThatShareStorageDependAndOthersDoNot() {
        Graph g = Graph.symbolic(k);
        Node x = g.input("x", Shape.of(8, 8));
        Node a = g.scale(x, 2f);
        Node b = g.scale(x, 3f);
        Node c = g.add(a, b);
        Planned p = plan(g, List.of(c));
        assertEquals(List.of(a, b, c), p.bound.nodes());
        DependencyGraph deps = Scheduling.dependencies(p.bound, p.storage);
        assertTrue(deps.independent(0, 1), "a and b only read x");
        assertFalse(deps.independent(0, 2), "c reads a");
        assertFalse(deps.independent(1, 2), "c reads b");
    }

    @Test
    void aScheduleRunsEveryInstructionAfterThoseItDependsOn() {
        Graph g = Graph.symbolic(k);
        Node x = g.input("x", Shape.of(8, 8));
        Node a = g.scale(x, 2f);
        Node b = g.scale(a, 3f);
        Node c = g.add(a, b);
        Planned p = plan(g, List.of(c));
        Schedule schedule = Scheduling.of(p.bound, p.storage, 1);
        assertEquals(0, schedule.groupCount(), "one lane runs every instruction on its own");
        Tensor in = p.values.inputs().get(x);
        for (int i = 0; i < in.size(); i++) {
            in.set(i, i);
        }
        schedule.run();
        Tensor out = p.values.valueOf(c);
        for (int i = 0; i < out.size(); i++) {
            assertEquals(8f * i, out.get(i), "c = 2x + 6x only when a runs before b and both before c");
        }
    }

    private record Planned(BufferAssignment values, Planner.Storage storage, Binding bound) {
    }

    private Planned plan(Graph g, List<Node> outputs) {
        boolean[] live = LiveNodes.of(g.nodes(), outputs);
        Fusion fusion = Fusion.none();
        Liveness liveness = Liveness.of(g.nodes(), live, fusion, outputs);
        BufferAssignment values = BufferAssignment.of(g.nodes(), live, fusion, liveness);
        Planner.Storage storage = new Planner.Storage(values, AuxValues.of(g.nodes(), live, fusion));
        return new Planned(values, storage, Binding.of(g.nodes(), live, fusion, liveness, storage, k));
    }
}
