package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.GradCheck.uniform;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.graph.ShapeException;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Finite-difference checks (and compiled == eager, see {@link GradCheck}) of the ops of sequence and attention
 * models: batched matmul, permutation of axes, softmax along any axis, layer normalization.
 */
class SequenceOpsGradientTest {

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void batchedMatmulForEveryTranspose(String backend) {
        Kernels k = GradCheck.kernels(backend);
        int seed = 100;
        for (int flags = 0; flags < 4; flags++) {
            boolean ta = (flags & 1) != 0;
            boolean tb = (flags & 2) != 0;
            int[] a = ta ? new int[] {2, 3, 4, 5} : new int[] {2, 3, 5, 4};
            int[] b = tb ? new int[] {2, 3, 6, 4} : new int[] {2, 3, 4, 6};
            GradCheck.op(k, "batchMatmul ta=" + ta + " tb=" + tb,
                    (g, xs) -> g.batchMatmul(xs.get(0), xs.get(1), ta, tb), gaussian(seed++, 1, a),
                    gaussian(seed++, 1, b));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void batchedMatmulWithAPlainMatrixOperand(String backend) {
        Kernels k = GradCheck.kernels(backend);
        GradCheck.op(k, "batchMatmul [2,3,5,4] x [4,6]", (g, xs) -> g.batchMatmul(xs.get(0), xs.get(1), false, false),
                gaussian(120, 1, 2, 3, 5, 4), gaussian(121, 1, 4, 6));
        GradCheck.op(k, "batchMatmul [5,4] x [3,6,4]^T", (g, xs) -> g.batchMatmul(xs.get(0), xs.get(1), false, true),
                gaussian(122, 1, 5, 4), gaussian(123, 1, 3, 6, 4));
    }

    @Test
    void batchedMatmulNamesBothShapesWhenBatchAxesDiffer() {
        Graph g = Graph.symbolic(GradCheck.kernels("scalar"));
        Node a = g.input("a", Shape.of(2, 3, 4));
        Node b = g.input("b", Shape.of(5, 4, 6));
        ShapeException e = assertThrows(ShapeException.class, () -> g.batchMatmul(a, b, false, false));
        assertTrue(e.getMessage().contains("(2, 3, 4)") || e.getMessage().contains("[2, 3, 4]"), e.getMessage());
        assertEquals(Shape.of(2, 3, 6), g.batchMatmul(a, g.input("c", Shape.of(2, 4, 6)), false, false).shape());
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void permuteOfAnyAxes(String backend) {
        Kernels k = GradCheck.kernels(backend);
        int[][] perms = {{0, 2, 1, 3}, {3, 1, 0, 2}, {1, 0, 3, 2}, {2, 3, 0, 1}};
        int seed = 140;
        for (int[] perm : perms) {
            // A non-linearity after the permutation gives each element its own upstream gradient.
            GradCheck.op(k, "permute " + java.util.Arrays.toString(perm),
                    (g, xs) -> g.square(g.permute(xs.get(0), perm)), gaussian(seed++, 1, 2, 3, 4, 5));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void softmaxAndLogSoftmaxAlongAnyAxis(String backend) {
        Kernels k = GradCheck.kernels(backend);
        int seed = 160;
        for (int axis : new int[] {0, 1, 2, -1, -2}) {
            GradCheck.op(k, "softmax axis " + axis, (g, xs) -> g.softmax(xs.get(0), axis),
                    gaussian(seed++, 1.5, 3, 4, 19));
            GradCheck.op(k, "logSoftmax axis " + axis, (g, xs) -> g.logSoftmax(xs.get(0), axis),
                    gaussian(seed++, 1.5, 3, 4, 19));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void layerNormOfInputScaleAndOffset(String backend) {
        Kernels k = GradCheck.kernels(backend);
        GradCheck.op(k, "layerNorm", 1e-2,
                (g, xs) -> g.layerNorm(xs.get(0), xs.get(1), xs.get(2), 1e-3f),
                gaussian(180, 1.5, 2, 3, 7), uniform(181, 0.5, 1.5, 7), gaussian(182, 1, 7));
        // A large mean over a small spread: the statistics in double keep the gradient's digits.
        GradCheck.op(k, "layerNorm offset mean", 1e-2,
                (g, xs) -> g.layerNorm(g.addScalar(xs.get(0), 20f), xs.get(1), xs.get(2), 1e-3f),
                gaussian(183, 1, 4, 9), uniform(184, 0.5, 1.5, 9), gaussian(185, 1, 9));
    }
}
