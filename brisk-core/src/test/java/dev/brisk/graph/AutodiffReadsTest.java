package dev.brisk.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Backends;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link UnaryFn#gradientReadsInput} says what the gradient rules really read. */
class AutodiffReadsTest {
    @Test
    void unaryGradientReadsInputMatchesTheGradientOps() {
        for (UnaryFn fn : UnaryFn.values()) {
            if (fn == UnaryFn.NON_FINITE) {
                continue; // no gradient
            }
            Graph g = Graph.symbolic(Backends.get());
            Node x = g.input("x", Shape.of(2, 3));
            Node y = g.unary(fn, 0.1f, x);
            Node loss = g.sumAll(y);
            int before = g.nodes().size();
            Autodiff.gradients(g, loss, List.of(x));
            boolean reads = g.nodes().subList(before, g.nodes().size()).stream()
                    .anyMatch(n -> n.inputs().contains(x));
            assertEquals(reads, fn.gradientReadsInput(), fn.toString());
        }
    }
}
