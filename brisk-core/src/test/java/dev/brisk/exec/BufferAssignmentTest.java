package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

class BufferAssignmentTest {
    @Test
    void valuesWithDisjointLifetimesShareABufferAndOverlappingOnesDoNot() {
        Graph g = Graph.symbolic(Backends.get());
        Node x = g.input("x", Shape.of(32, 32));
        Node a = g.scale(x, 2f);
        Node b = g.scale(a, 3f);
        Node c = g.scale(b, 4f);
        BufferAssignment values = of(g, List.of(c));
        assertNotSame(values.valueOf(a).data(), values.valueOf(b).data(), "b is written while a is read");
        assertNotSame(values.valueOf(b).data(), values.valueOf(c).data(), "c is written while b is read");
        assertSame(values.valueOf(a).data(), values.valueOf(c).data(), "a is dead once b has run");
        assertEquals(2, values.bufferCount());
        assertEquals(2L * 32 * 32, values.bufferFloats());
    }

    @Test
    void inputsVariablesAndReshapesTakeNoPoolBuffer() {
        Graph g = Graph.symbolic(Backends.get());
        Variable v = new Variable("v", Tensor.zeros(16), false);
        Node x = g.input("x", Shape.of(4, 4));
        Node a = g.scale(x, 2f);
        Node view = g.reshape(a, Shape.of(16));
        Node sum = g.add(view, g.variable(v));
        Node assign = g.assign(v, sum);
        BufferAssignment values = of(g, List.of(sum));
        assertSame(values.inputs().get(x), values.valueOf(x), "the caller fills the input's tensor");
        assertSame(v.value(), values.valueOf(sum.input(1)), "a variable is its own storage");
        assertSame(values.valueOf(a).data(), values.valueOf(view).data(), "a reshape views its input");
        assertEquals(Shape.of(16), values.valueOf(view).shape());
        assertNull(values.valueOf(assign), "an assignment has no value");
        assertEquals(2, values.bufferCount(), "a and the sum, which outlives the run");
    }

    @Test
    void aLeadingAxisSliceViewsItsInputAndKeepsItAliveWhileItIsRead() {
        Graph g = Graph.symbolic(Backends.get());
        Variable v = new Variable("v", Tensor.zeros(3, 4, 2), false);
        Node x = g.input("x", Shape.of(3, 4, 2));
        Node packed = g.scale(x, 2f);
        Node second = g.slice(packed, 0, 1, 1);
        Node single = g.slice(g.reshape(packed, Shape.of(1, 12, 2)), 1, 4, 4);
        Node inner = g.slice(packed, 1, 1, 2);
        Node ofVariable = g.slice(g.variable(v), 0, 1, 1);
        Node later = g.scale(x, 3f);
        Node sum = g.add(g.add(g.reshape(second, Shape.of(8)), g.reshape(single, Shape.of(8))),
                g.reshape(ofVariable, Shape.of(8)));
        BufferAssignment values = of(g, List.of(sum, g.add(inner, inner), later));
        Tensor p = values.valueOf(packed);
        assertSame(p.data(), values.valueOf(second).data(), "a slice of the leading axis views its input");
        assertEquals(p.offset() + 8, values.valueOf(second).offset());
        assertSame(p.data(), values.valueOf(single).data(), "axes of size 1 before the sliced one: still a view");
        assertEquals(p.offset() + 8, values.valueOf(single).offset());
        assertNotSame(p.data(), values.valueOf(inner).data(), "a slice of an inner axis is a copy");
        assertNotSame(v.value().data(), values.valueOf(ofVariable).data(), "a variable's slice is a copy");
        assertNotSame(p.data(), values.valueOf(later).data(), "the viewed buffer lives while its views are read");
    }

    private static BufferAssignment of(Graph g, List<Node> outputs) {
        boolean[] live = LiveNodes.of(g.nodes(), outputs);
        Fusion fusion = Fusion.none();
        return BufferAssignment.of(g.nodes(), live, fusion, Liveness.of(g.nodes(), live, fusion, outputs));
    }
}
