package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

class BindingTest {
    private final Kernels k = Backends.get();

    @Test
    void bindsOneInstructionPerLiveNodeThatCallsAKernel() {
        Graph g = Graph.symbolic(k);
        Variable v = new Variable("v", Tensor.zeros(16), false);
        Node x = g.input("x", Shape.of(4, 4));
        Node a = g.scale(x, 2f);
        Node view = g.reshape(a, Shape.of(16));
        Node sum = g.add(view, g.variable(v));
        g.scale(x, 9f); // dead: binds nothing
        List<Node> outputs = List.of(sum);
        boolean[] live = LiveNodes.of(g.nodes(), outputs);
        Fusion fusion = Fusion.none();
        Liveness liveness = Liveness.of(g.nodes(), live, fusion, outputs);
        BufferAssignment values = BufferAssignment.of(g.nodes(), live, fusion, liveness);
        Planner.Storage storage = new Planner.Storage(values, AuxValues.of(g.nodes(), live, fusion));
        Binding bound = Binding.of(g.nodes(), live, fusion, liveness, storage, k);

        assertEquals(List.of(a, sum), bound.nodes(), "the input, variable and reshape call no kernel");
        assertEquals(2, bound.code().size());
        assertSame(values.valueOf(a), bound.outputs().get(0));
        assertSame(values.valueOf(sum), bound.outputs().get(1));

        Tensor in = values.inputs().get(x);
        for (int i = 0; i < in.size(); i++) {
            in.set(i, i);
        }
        v.value().set(3, 100f);
        for (Instruction instruction : bound.code()) {
            instruction.run();
        }
        Tensor out = values.valueOf(sum);
        assertEquals(2f * 5, out.get(5), "the instructions read and write the assigned storage");
        assertEquals(2f * 3 + 100f, out.get(3));
    }
}
