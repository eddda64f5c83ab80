package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brisk.backend.ElementwiseChain;
import dev.brisk.backend.ElementwiseChain.Broadcast;
import dev.brisk.backend.ElementwiseChain.Step;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A chain of elementwise steps in one call gives, on each backend, the bits of the separate unary and binary
 * kernels, with every function, each kind of input, sizes that end blocks, chunks, rows and vectors early, one
 * thread and two, and the output written over an input.
 */
class ElementwiseChainTest {
    private static final int[] ROW_STRIDES = {0, 1};

    /** Steps: fn(x), then binary(previous, input), for every pair of unary and binary functions. */
    @Test
    void everyFunctionGivesTheSeparateKernelsBits() {
        Random random = new Random(4);
        for (Kernels k : new Kernels[] {new ScalarKernels(), new VectorKernels()}) {
            for (int[] rc : new int[][] {{1, 2}, {3, 17}, {70, 1001}, {2, 4099}}) {
                int rows = rc[0];
                int cols = rc[1];
                int n = rows * cols;
                // Inputs: 0 the running value's start, 1 a second activation, 2 a row, 3 a scalar.
                float[][] in = {uniform(random, n, 0.1f, 2f), uniform(random, n, -2f, 2f),
                        uniform(random, cols, -2f, 2f), uniform(random, 1, -2f, 2f)};
                List<Broadcast> kinds = List.of(Broadcast.FULL, Broadcast.FULL, Broadcast.ROW, Broadcast.SCALAR);
                for (UnaryFn u : UnaryFn.values()) {
                    for (BinaryFn b : BinaryFn.values()) {
                        for (int other = 1; other <= 3; other++) {
                            int o = other;
                            List<Step> steps = List.of(Step.unary(u, 0.2f, 0),
                                    Step.binary(b, 0.3f, ElementwiseChain.PREVIOUS, o),
                                    Step.binary(BinaryFn.SUB, 0f, o, ElementwiseChain.PREVIOUS));
                            ElementwiseChain chain = new ElementwiseChain(steps, kinds, n, cols);
                            float[] expected = separate(k, u, b, in, o, rows, cols);
                            String what = k.name() + " " + u + " " + b + " input " + o + " " + rows + "x" + cols;
                            withBudgets(() -> {
                                float[] out = new float[n];
                                k.elementwiseChain(chain, in, new int[4], out, 0);
                                assertArrayEquals(expected, out, what);
                            });
                        }
                    }
                }
            }
        }
    }

    /** The three steps one call at a time, as an unfused plan runs them. */
    private static float[] separate(Kernels k, UnaryFn u, BinaryFn b, float[][] in, int other, int rows,
                                    int cols) {
        int n = rows * cols;
        int[] shape = {rows, cols};
        int[] full = {cols, 1};
        int[] strides = other == 1 ? full : other == 2 ? ROW_STRIDES : new int[] {0, 0};
        float[] t = new float[n];
        k.unary(u, 0.2f, in[0], 0, t, 0, n);
        float[] v = new float[n];
        k.binary(b, 0.3f, t, 0, full, in[other], 0, strides, v, 0, shape);
        float[] out = new float[n];
        k.binary(BinaryFn.SUB, 0f, in[other], 0, strides, v, 0, full, out, 0, shape);
        return out;
    }

    @Test
    void theOutputMayBeAWholeInput() {
        Random random = new Random(5);
        for (Kernels k : new Kernels[] {new ScalarKernels(), new VectorKernels()}) {
            int n = 50001;
            float[] x = uniform(random, n, -2f, 2f);
            float[] expected = new float[n];
            k.unary(UnaryFn.SIGMOID, 0f, x, 0, expected, 0, n);
            k.binary(BinaryFn.MUL, 0f, x, 0, new int[] {1}, expected, 0, new int[] {1}, expected, 0, new int[] {n});
            ElementwiseChain swish = new ElementwiseChain(List.of(Step.unary(UnaryFn.SIGMOID, 0f, 0),
                    Step.binary(BinaryFn.MUL, 0f, 0, ElementwiseChain.PREVIOUS)), List.of(Broadcast.FULL), n, n);
            k.elementwiseChain(swish, new float[][] {x}, new int[1], x, 0);
            assertArrayEquals(expected, x, k.name());
        }
    }

    @Test
    void aChainThatReadsNothingOrAppliesAUnaryOpToAScalarIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ElementwiseChain(
                List.of(Step.unary(UnaryFn.EXP, 0f, ElementwiseChain.PREVIOUS)), List.of(Broadcast.FULL), 4, 4));
        assertThrows(IllegalArgumentException.class, () -> new ElementwiseChain(
                List.of(Step.unary(UnaryFn.EXP, 0f, 0)), List.of(Broadcast.SCALAR), 4, 4));
        assertThrows(IllegalArgumentException.class, () -> new ElementwiseChain(
                List.of(Step.binary(BinaryFn.ADD, 0f, 0, 1)), List.of(Broadcast.FULL), 4, 4));
    }
}
