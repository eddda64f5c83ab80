package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerTest {
    private final Kernels k = Backends.get();

    @Test
    void maxPoolingKeepsItsCellsOnlyWhenItsGradientIsPlanned() {
        Graph g = Graph.symbolic(k);
        Node x = g.input("x", Shape.of(2, 4, 4, 3));
        Node pooled = g.maxPool(x, new PoolAttrs(2, 2, 2, 2, false));
        Node loss = g.sumAll(g.mul(pooled, pooled));
        Plan inference = Planner.compile(g.nodes(), List.of(pooled), k);
        assertEquals(0, inference.keptFloats(), "no gradient reads the cells");
        Node dx = Autodiff.gradients(g, loss, List.of(x)).get(0);
        Plan training = Planner.compile(g.nodes(), List.of(loss, dx), k);
        assertEquals(pooled.shape().size(), training.keptFloats(), "one cell per pooled value");
        Tensor in = training.input(x);
        for (int i = 0; i < in.size(); i++) {
            in.set(i, (i * 7 % 11) - 5f);
        }
        training.run();
        // d(sum p^2)/dx = 2 p at each window's maximum, 0 elsewhere.
        Tensor grad = training.output(dx);
        Tensor p = training.output(loss);
        float total = 0;
        for (int i = 0; i < grad.size(); i++) {
            total += grad.get(i) * grad.get(i) / 4;
        }
        assertEquals(p.get(0), total, 1e-4f, "the gradient reaches each maximum once");
    }

    @Test
    void reusesBuffersOfDeadValuesAndDropsUnusedNodes() {
        Graph g = Graph.symbolic(k);
        Node x = g.input("x", Shape.of(64, 64));
        Node a = g.scale(x, 2f);
        Node b = g.scale(a, 3f);
        Node c = g.scale(b, 4f);
        Node d = g.scale(c, 5f);
        g.scale(x, 100f); // unused: must not be computed
        // Without fusion, which would run the four scales as one call (ElementwiseFusionTest).
        Plan plan = Planner.compile(g.nodes(), List.of(d), k, false);
        assertEquals(4, plan.instructionCount(), "the unused node was dropped");
        assertEquals(2, plan.bufferCount(), "a chain needs only two alternating buffers");
        Tensor in = plan.input(x);
        for (int i = 0; i < in.size(); i++) {
            in.set(i, i);
        }
        plan.run();
        Tensor out = plan.output(d);
        for (int i = 0; i < out.size(); i++) {
            assertEquals(120f * i, out.get(i), 1e-3f * Math.max(1, i));
        }
    }

    @Test
    void compiledMatchesEagerOnABroadcastingExpression() {
        float[] xs = new float[24];
        float[] bs = new float[4];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = (i % 7) - 3;
        }
        for (int i = 0; i < bs.length; i++) {
            bs[i] = i * 0.5f;
        }
        Graph eager = Graph.eager(k);
        Node ex = eager.input("x", Tensor.of(xs, 6, 4));
        Node eb = eager.input("b", Tensor.of(bs, 4));
        Node ey = eager.sum(eager.mul(eager.add(ex, eb), ex), false, 0);

        Graph sym = Graph.symbolic(k);
        Node sx = sym.input("x", Shape.of(6, 4));
        Node sb = sym.input("b", Shape.of(4));
        Node sy = sym.sum(sym.mul(sym.add(sx, sb), sx), false, 0);
        Plan plan = Planner.compile(sym.nodes(), List.of(sy), k);
        plan.feed(sx, Tensor.of(xs, 6, 4));
        plan.feed(sb, Tensor.of(bs, 4));
        plan.run();
        for (int i = 0; i < 4; i++) {
            assertEquals(ey.value().get(i), plan.output(sy).get(i), 1e-5f);
        }
    }

    /** A plan computing {@code y = 2 x} for an input {@code x} of shape (2, 3). */
    private record Doubling(Node x, Node y, Plan plan) {
    }

    private Doubling doubling(String inputName) {
        Graph g = Graph.symbolic(k);
        Node x = g.input(inputName, Shape.of(2, 3));
        Node y = g.scale(x, 2f);
        return new Doubling(x, y, Planner.compile(g.nodes(), List.of(y), k));
    }

    @Test
    void feedingTheWrongShapeNamesTheInput() {
        Doubling d = doubling("pixels");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> d.plan().feed(d.x(), Tensor.zeros(3, 2)));
        assertTrue(e.getMessage().contains("pixels") && e.getMessage().contains("(2, 3)"), e.getMessage());
    }

    /**
     * A batch gathered into the plan's own input buffer is fed as it is (feed skips copying it onto itself, which
     * only timing could show); any other value is copied in.
     */
    @Test
    void feedingTheInputBufferItselfKeepsItsValuesAndAnyOtherValueIsCopied() {
        Doubling d = doubling("x");
        Node x = d.x();
        Node y = d.y();
        Plan plan = d.plan();
        Tensor buffer = plan.input(x);
        for (int i = 0; i < 6; i++) {
            buffer.set(i, i);
        }
        plan.feed(x, Tensor.wrap(buffer.data(), buffer.offset(), Shape.of(2, 3))); // a batch gathered in place
        plan.run();
        assertEquals(10f, plan.output(y).get(5));
        float[] shifted = new float[7];
        for (int i = 0; i < 7; i++) {
            shifted[i] = 10 * i;
        }
        plan.feed(x, Tensor.wrap(shifted, 1, Shape.of(2, 3)));
        plan.run();
        assertEquals(20f, plan.output(y).get(0));
        assertEquals(120f, plan.output(y).get(5));
    }
}
