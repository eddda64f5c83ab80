package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.ops.AdamUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FLOP estimates: exact for products and convolutions, per element for the rest, zero for data movement. */
class FlopsTest {
    private final Graph g = Graph.symbolic(Backends.get());

    private Node only(OpType op) {
        List<Node> found = g.nodes().stream().filter(n -> n.op() == op).toList();
        assertEquals(1, found.size(), op + " nodes: " + found);
        return found.get(0);
    }

    @Test
    void matmulIsTwoMNKWhicheverOperandIsTransposed() {
        Node a = g.input("a", Shape.of(128, 784));
        Node b = g.input("b", Shape.of(784, 512));
        assertEquals(2L * 128 * 512 * 784, Flops.of(g.matmul(a, b)));
        Node dy = g.input("dy", Shape.of(128, 512));
        Node dw = g.matmul(a, dy, true, false);
        assertEquals(2L * 784 * 512 * 128, Flops.of(dw), "dW = x^T dy");
        assertEquals("(128, 784)^T, (128, 512) -> (784, 512)", OpInfo.of(dw).shapes());
        assertEquals(2L * 128 * 784 * 512, Flops.of(g.matmul(dy, b, false, true)), "dx = dy W^T");
    }

    @Test
    void convolutionAndBothGradientsCountEveryMultiplyAdd() {
        Node x = g.input("x", Shape.of(2, 6, 6, 3));
        Node k = g.variable(new Variable("k", Tensor.zeros(Shape.of(3, 3, 3, 4)), true));
        Node y = g.conv2d(x, k, 1, 1, false); // (2, 4, 4, 4)
        Autodiff.gradients(g, g.sumAll(y), List.of(x, k));
        long expected = 2L * (2 * 4 * 4 * 4) * (3 * 3 * 3);
        assertEquals(expected, Flops.of(y));
        assertEquals(expected, Flops.of(only(OpType.CONV2D_GRAD_INPUT)));
        assertEquals(expected, Flops.of(only(OpType.CONV2D_GRAD_FILTER)));
    }

    @Test
    void elementwiseReductionsPoolingAndDataMovement() {
        Node x = g.input("x", Shape.of(4, 8, 8, 2));
        assertEquals(512, Flops.of(g.unary(UnaryFn.RELU, x)));
        assertEquals(512, Flops.of(g.add(x, x)));
        assertEquals(512, Flops.of(g.sum(x, false, 1, 2)), "one add per input element");
        assertEquals(4L * 4 * 4 * 2 * 4, Flops.of(g.maxPool(x, new PoolAttrs(2, 2, 2, 2, false))));
        Node m = g.input("m", Shape.of(16, 10));
        assertEquals(5 * 160, Flops.of(g.logSoftmax(m)));
        assertEquals(0, Flops.of(g.transpose(m)));
        assertEquals(0, Flops.of(g.slice(m, 1, 0, 5)));
        assertEquals(0, Flops.of(g.broadcastTo(g.input("r", Shape.of(1, 10)), Shape.of(16, 10))));
    }

    @Test
    void adamCountsTwelvePerWeight() {
        Variable w = new Variable("w", Tensor.zeros(Shape.of(30, 10)), true);
        Variable mSlot = new Variable("m", Tensor.zeros(Shape.of(30, 10)), false);
        Variable vSlot = new Variable("v", Tensor.zeros(Shape.of(30, 10)), false);
        Node grad = g.input("g", Shape.of(30, 10));
        Node hyper = g.input("hyper", Shape.of(AdamUpdate.HYPER_LENGTH));
        Node u = g.update(new AdamUpdate(0.9f, 0.999f), w, grad,
                List.of(mSlot, vSlot), hyper);
        assertEquals(12L * 300, Flops.of(u));
        assertEquals("UPDATE(ADAM)", OpInfo.of(u).op());
        assertEquals("w", OpInfo.of(u).layer(), "an update is attributed to the weight it writes");
        assertEquals("(30, 10) in place", OpInfo.of(u).shapes());
    }

    @Test
    void newerOptimizersCountTheirKernelsOperations() {
        Variable w = new Variable("w", Tensor.zeros(Shape.of(30, 10)), true);
        Variable a = new Variable("a", Tensor.zeros(Shape.of(30, 10)), false);
        Variable b = new Variable("b", Tensor.zeros(Shape.of(30, 10)), false);
        Variable c = new Variable("c", Tensor.zeros(Shape.of(30, 10)), false);
        Node grad = g.input("g", Shape.of(30, 10));
        Node hyper = g.input("hyper", Shape.of(5));
        Node nadam = g.update(new dev.brisk.ops.NadamUpdate(0.9f, 0.999f), w, grad, List.of(a, b), hyper);
        assertEquals(15L * 300, Flops.of(nadam));
        assertEquals("UPDATE(NADAM)", OpInfo.of(nadam).op());
        Node rms = g.update(new dev.brisk.ops.RmspropFullUpdate(0.9f, 0.5f, true), w, grad, List.of(a, b, c), hyper);
        assertEquals((9L + 5 + 2) * 300, Flops.of(rms), "mean square, centring, momentum");
        assertEquals("UPDATE(RMSPROP)", OpInfo.of(rms).op());
        Node ams = g.update(new dev.brisk.ops.AmsgradUpdate(0.9f, 0.999f), w, grad, List.of(a, b, c), hyper);
        assertEquals(13L * 300, Flops.of(ams));
        assertEquals("UPDATE(AMSGRAD)", OpInfo.of(ams).op());
    }
}
