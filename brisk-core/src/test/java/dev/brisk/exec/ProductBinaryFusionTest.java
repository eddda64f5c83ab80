package dev.brisk.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.backend.jvm.ScalarKernels;
import dev.brisk.backend.jvm.VectorKernels;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A product read, through reshapes, only by a binary op with an operand of its shape runs that op in the product's
 * call: a residual add after a dense layer's bias, and backward the activation's gradient on the product that made
 * dy; and an activation whose gradient reads its input runs in the call that writes that input. Same bits as the
 * unfused plan.
 */
class ProductBinaryFusionTest {
    /** Rows, features and hidden units: several vectors wide and not a multiple of one. */
    private static final int ROWS = 96;
    private static final int FEATURES = 40;
    private static final int HIDDEN = 70;

    /**
     * A transformer's feed-forward block over a rank-3 input: {@code x + dense(gelu(dense(x)))}, each dense layer
     * viewing its input as rows of features (reshapes), then a loss; the outputs are the loss and every gradient.
     */
    private record Net(Graph g, List<Node> inputs, List<Node> outputs) {
    }

    private static Net feedForward(Kernels k, UnaryFn activation) {
        Graph g = Graph.symbolic(k);
        Node x = g.input("x", Shape.of(4, ROWS / 4, FEATURES));
        Node w1 = g.input("w1", Shape.of(FEATURES, HIDDEN));
        Node b1 = g.input("b1", Shape.of(HIDDEN));
        Node w2 = g.input("w2", Shape.of(HIDDEN, FEATURES));
        Node b2 = g.input("b2", Shape.of(FEATURES));
        Node rows = g.reshape(x, Shape.of(ROWS, FEATURES));
        Node h = g.unary(activation, 0.1f, g.add(g.matmul(rows, w1), b1));
        Node h3 = g.reshape(h, Shape.of(4, ROWS / 4, HIDDEN));
        Node y = g.add(g.matmul(g.reshape(h3, Shape.of(ROWS, HIDDEN)), w2), b2);
        Node out = g.add(x, g.reshape(y, x.shape()));
        Node loss = g.sumAll(g.mul(out, out));
        List<Node> inputs = List.of(x, w1, b1, w2, b2);
        List<Node> outputs = new ArrayList<>(List.of(loss));
        outputs.addAll(Autodiff.gradients(g, loss, inputs));
        return new Net(g, inputs, outputs);
    }

    private static List<float[]> run(Plan plan, Net net) {
        SplittableRandom r = new SplittableRandom(11);
        for (Node in : net.inputs()) {
            Tensor t = plan.input(in);
            for (int i = 0; i < t.size(); i++) {
                t.set(i, r.nextInt(6) == 0 ? 0f : (float) r.nextGaussian());
            }
        }
        plan.run();
        List<float[]> out = new ArrayList<>();
        for (Node o : net.outputs()) {
            out.add(plan.output(o).toArray());
        }
        return out;
    }

    @Test
    void theResidualAddAndTheActivationGradientRunInTheProductsCall() {
        for (Kernels k : new Kernels[] {new ScalarKernels(), new VectorKernels()}) {
            for (UnaryFn fn : new UnaryFn[] {UnaryFn.GELU, UnaryFn.RELU, UnaryFn.TANH}) {
                Net net = feedForward(k, fn);
                Plan fused = Planner.compile(net.g().nodes(), net.outputs(), k, true);
                Plan plain = Planner.compile(net.g().nodes(), net.outputs(), k, false);
                List<float[]> expected = run(plain, net);
                List<float[]> actual = run(fused, net);
                String what = k.name() + " " + fn;
                for (int i = 0; i < expected.size(); i++) {
                    assertArrayEquals(expected.get(i), actual.get(i), what + ": output " + i);
                }
                List<String> names = FusionTest.fusedNames(fused);
                // The first layer's product, bias and activation are one call, gelu's included, whose gradient
                // reads the pre-activation: the call writes it too.
                assertTrue(names.contains("MATMUL+BINARY+UNARY"), what + ": " + names);
                for (Node n : fused.instructionNodes()) {
                    assertTrue(n.op() != OpType.UNARY, what + ": a pass of its own for " + n);
                }
                // Forward: the second layer's product, bias and the residual add through the view back to rank 3.
                assertTrue(names.contains("MATMUL+BINARY+RESHAPE+BINARY"), what + ": " + names);
                // Backward: dy of the activation is the second layer's input gradient, viewed through the reshapes;
                // gelu's gradient reads the pre-activation, relu's and tanh's the output.
                assertEquals(1, Collections.frequency(names, "MATMUL+RESHAPE+RESHAPE+BINARY"), what + ": " + names);
            }
        }
    }
}
