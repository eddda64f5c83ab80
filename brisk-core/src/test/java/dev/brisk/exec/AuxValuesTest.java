package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.tensor.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuxValuesTest {
    @Test
    void maxPoolingKeepsItsCellsOnlyWhereItsGradientIsLive() {
        Graph g = Graph.symbolic(Backends.get());
        Node x = g.input("x", Shape.of(1, 4, 4, 2));
        Node pooled = g.maxPool(x, new PoolAttrs(2, 2, 2, 2, false));
        Node loss = g.sumAll(pooled);
        Node dx = Autodiff.gradients(g, loss, List.of(x)).get(0);

        AuxValues inference = of(g, List.of(pooled));
        assertNull(inference.of(pooled), "no gradient reads the cells");
        assertEquals(0, inference.keptFloats());

        AuxValues training = of(g, List.of(loss, dx));
        assertNotNull(training.of(pooled), "the gradient reads the cells");
        assertEquals(pooled.shape(), training.of(pooled).shape(), "one cell per pooled value");
        assertEquals(pooled.shape().size(), training.keptFloats());
        assertNull(training.of(loss), "a sum keeps nothing");
    }

    @Test
    void dropoutKeepsItsMaskWithoutAGradient() {
        Graph g = Graph.symbolic(Backends.get());
        Node x = g.input("x", Shape.of(8));
        Node seed = g.input("seed", Shape.of(1));
        Node dropped = g.dropout(x, 0.5f, seed, 1);
        AuxValues aux = of(g, List.of(dropped));
        assertNotNull(aux.of(dropped), "the forward kernel writes the mask");
        assertEquals(aux.of(dropped).size(), aux.keptFloats());
    }

    private static AuxValues of(Graph g, List<Node> outputs) {
        return AuxValues.of(g.nodes(), LiveNodes.of(g.nodes(), outputs), Fusion.none());
    }
}
