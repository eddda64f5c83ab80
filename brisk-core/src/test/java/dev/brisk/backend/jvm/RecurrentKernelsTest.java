package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.nn.Initializer;
import dev.brisk.ops.RecurrentCell;
import dev.brisk.ops.RecurrentGeometry;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The vector recurrent kernels (vectorized gate passes, rows split over two threads) against the scalar reference,
 * forward and backward, on sizes with whole vectors and a ragged tail; and the orthogonal initializer's rows or
 * columns are orthonormal.
 */
class RecurrentKernelsTest {
    @AfterEach
    void reset() {
        ThreadBudget.reset();
    }

    private static float[] random(long seed, int n, double scale) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[n + 64];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (r.nextGaussian() * scale);
        }
        return v;
    }

    private static void assertClose(float[] expected, float[] actual, int n, String what) {
        assertClose(expected, actual, n, what, 2e-5f);
    }

    private static void assertClose(float[] expected, float[] actual, int n, String what, float rtol) {
        for (int i = 0; i < n; i++) {
            float tol = rtol * Math.max(1f, Math.abs(expected[i]));
            assertEquals(expected[i], actual[i], tol, what + " element " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(RecurrentCell.class)
    void vectorKernelsAgreeWithTheScalarReference(RecurrentCell cell) {
        ThreadBudget.set(2);
        for (int units : new int[] {32, 21}) {
            for (int variant = 0; variant < 3; variant++) {
                boolean sequences = variant != 0;
                // Variant 2 adds a mask with padded steps, an initial state and the final states as outputs.
                boolean extras = variant == 2;
                // The sequence output goes with going backwards, the last state with going forwards.
                // Variant 2 also outputs zeros at masked steps, in time order.
                RecurrentGeometry g = new RecurrentGeometry(cell, 40, 7, 13, units, sequences, sequences, extras,
                        extras, extras, extras, extras);
                int gw = g.gateWidth();
                float[] x = random(1, g.batch() * g.steps() * g.inputs(), 1);
                float[] w = random(2, g.inputs() * gw, 0.3);
                float[] u = random(3, units * gw, 0.3);
                float[] b = random(4, g.biasSize(), 0.3);
                float[] mask = new float[g.batch() * g.steps()];
                for (int r = 0; r < g.batch(); r++) {
                    for (int t = 0; t < g.steps(); t++) {
                        mask[r * g.steps() + t] = t < g.steps() - r % 4 ? 1f : 0f;
                    }
                }
                float[] init = random(6, g.batch() * g.states() * units, 0.5);
                int outSize = g.batch() * g.outputRowWidth();
                float[] dy = random(5, outSize, 1);
                float[][] y = new float[2][outSize + 64];
                float[][] grads = new float[2][g.gradientSize(true) + 64];
                Object[] kernels = {new ScalarKernels(), new VectorKernels()};
                for (int i = 0; i < 2; i++) {
                    dev.brisk.backend.Kernels k = (dev.brisk.backend.Kernels) kernels[i];
                    float[] state = new float[g.stateSize() + 64];
                    float[] scratch = new float[g.scratchSize() + 64];
                    k.recurrentForward(g, x, 0, w, 0, u, 0, b, 0, mask, 0, init, 0, state, 0, y[i], 0);
                    k.recurrentBackward(g, dy, 0, w, 0, u, 0, mask, 0, state, 0, scratch, 0, grads[i], 0, true);
                }
                String what = cell + " units " + units + (sequences ? " sequences" : " last")
                        + (extras ? " masked, initial and final states" : "");
                assertClose(y[0], y[1], outSize, what + " y");
                // With an initial state and the final states' gradients the weight gradients are sums of larger
                // terms over 280 rows; the scalar and vector tanh differ in the last bits (seen: 2.4e-5 relative).
                assertClose(grads[0], grads[1], g.gradientSize(true), what + " gradients", extras ? 1e-4f : 2e-5f);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(RecurrentCell.class)
    void orthogonalInitializerGivesOrthonormalRowsOrColumns(RecurrentCell cell) {
        int units = 6;
        Shape shape = Shape.of(units, cell.gates() * units);
        Tensor q = Initializer.orthogonal().create(shape, units, cell.gates() * units, 9);
        int rows = shape.dim(0);
        int cols = shape.dim(1);
        boolean wide = rows < cols;
        int vectors = Math.min(rows, cols);
        int length = Math.max(rows, cols);
        for (int a = 0; a < vectors; a++) {
            for (int c = 0; c < vectors; c++) {
                double dot = 0;
                for (int i = 0; i < length; i++) {
                    float va = wide ? q.get(a * cols + i) : q.get(i * cols + a);
                    float vc = wide ? q.get(c * cols + i) : q.get(i * cols + c);
                    dot += (double) va * vc;
                }
                assertEquals(a == c ? 1.0 : 0.0, dot, 1e-5, cell + ": vectors " + a + ", " + c);
            }
        }
        Tensor again = Initializer.orthogonal().create(shape, units, cell.gates() * units, 9);
        for (int i = 0; i < q.size(); i++) {
            assertTrue(q.get(i) == again.get(i), "seeded");
        }
    }
}
