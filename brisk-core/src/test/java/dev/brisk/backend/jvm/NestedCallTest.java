package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.uniform;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.parallel.Parallel;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A kernel called inside a parallel region runs inline on one thread; the planner runs such calls side by side
 * ({@code dev.brisk.exec.Schedule}), which is only sound when the inline call gives the same bits as the same call
 * split over the pool. These are the kernels whose split could change the sums: gemm (split by rows or columns),
 * reductions and the filter gradient (per-thread partial sums), and the convolutions built on gemm.
 */
class NestedCallTest {
    private static final Kernels VECTOR = new VectorKernels();
    private static final Kernels SCALAR = new ScalarKernels();

    @AfterEach
    void reset() {
        ThreadBudget.reset();
    }

    /** Runs {@code call} into a fresh output split over two threads, then inline inside a region; compares. */
    private static void assertSameInline(String what, int size, Consumer<float[]> call) {
        ThreadBudget.set(2);
        float[] split = new float[size + 64];
        call.accept(split);
        float[] inline = new float[size + 64];
        Parallel.forRange(2, 1, (from, to) -> {
            if (from == 0) {
                call.accept(inline);
            }
        });
        assertArrayEquals(split, inline, what);
    }

    @Test
    void gemmGivesTheSameBitsInline() {
        Random r = new Random(1);
        int[][] shapes = {{128, 512, 784}, {128, 512, 512}, {784, 512, 128}, {128, 10, 512}, {97, 130, 333}};
        for (Kernels k : new Kernels[] {VECTOR, SCALAR}) {
            for (int[] s : shapes) {
                int m = s[0];
                int n = s[1];
                int depth = s[2];
                for (int t = 0; t < 4; t++) {
                    boolean ta = (t & 1) != 0;
                    boolean tb = (t & 2) != 0;
                    float[] a = uniform(r, m * depth + 64, -1, 1);
                    float[] b = uniform(r, depth * n + 64, -1, 1);
                    assertSameInline("gemm " + m + "x" + n + "x" + depth + " " + t, m * n, c ->
                            k.gemm(ta, tb, m, n, depth, a, 0, ta ? m : depth, b, 0, tb ? depth : n, c, 0, n, false));
                }
            }
        }
    }

    @Test
    void reductionsGiveTheSameBitsInline() {
        Random r = new Random(2);
        int[][] shapes = {{256, 512}, {128, 512}, {4096, 64}, {2, 70000}, {70000, 2}};
        for (Kernels k : new Kernels[] {VECTOR, SCALAR}) {
            for (int[] s : shapes) {
                float[] x = uniform(r, s[0] * s[1] + 64, -1, 1);
                for (boolean[] axes : new boolean[][] {{true, false}, {false, true}, {true, true}}) {
                    int out = (axes[0] ? 1 : s[0]) * (axes[1] ? 1 : s[1]);
                    for (ReduceFn fn : ReduceFn.values()) {
                        assertSameInline("reduce " + fn + " " + s[0] + "x" + s[1], out, y ->
                                k.reduce(fn, x, 0, s, axes, y, 0));
                    }
                }
            }
        }
    }

    @Test
    void convolutionsGiveTheSameBitsInline() {
        Random r = new Random(3);
        ConvGeometry[] shapes = {
            // W2's layers: 28x28x1 -> 32 and 13x13x32 -> 64, 3x3 valid.
            new ConvGeometry(16, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
            new ConvGeometry(16, 13, 13, 32, 3, 3, 64, 1, 1, 0, 0, 11, 11),
            new ConvGeometry(5, 9, 9, 8, 3, 3, 16, 2, 2, 1, 1, 5, 5),
        };
        for (Kernels k : new Kernels[] {VECTOR, SCALAR}) {
            for (ConvGeometry g : shapes) {
                int xs = g.batch() * g.height() * g.width() * g.channels();
                int ws = g.kernelH() * g.kernelW() * g.channels() * g.outChannels();
                int ys = g.batch() * g.outH() * g.outW() * g.outChannels();
                float[] x = uniform(r, xs + 64, -1, 1);
                float[] w = uniform(r, ws + 64, -1, 1);
                float[] dy = uniform(r, ys + 64, -1, 1);
                assertSameInline("conv " + g, ys, y -> k.conv2d(g, x, 0, w, 0, y, 0));
                assertSameInline("conv dx " + g, xs, dx -> k.conv2dBackwardInput(g, dy, 0, w, 0, dx, 0));
                assertSameInline("conv dw " + g, ws, dw -> k.conv2dBackwardFilter(g, x, 0, dy, 0, dw, 0));
            }
        }
    }
}
