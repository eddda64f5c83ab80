package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.uniform;
import static dev.brisk.backend.jvm.Arrays2.withBudgets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A binary op and an activation in one call give, on each backend, the bits of the two separate kernels, at sizes
 * that end blocks, chunks and vectors early, with one thread and with two (the scale: dropout's gradient).
 */
class BinaryActivationTest {
    private static float[] separate(Kernels k, BinaryFn fn, UnaryFn act, float[] a, float[] b) {
        int n = a.length;
        float[] out = new float[n];
        k.binary(fn, 0f, a, 0, new int[] {1}, b, 0, new int[] {1}, out, 0, new int[] {n});
        k.unary(act, 0.1f, out, 0, out, 0, n);
        return out;
    }

    private static float[] fused(Kernels k, BinaryFn fn, UnaryFn act, float[] a, float[] b) {
        float[] out = new float[a.length];
        k.binaryActivation(fn, 0f, a, 0, b, 0, act, 0.1f, out, 0, a.length);
        return out;
    }

    @Test
    void fusedGivesTheSeparateKernelsBits() {
        Random random = new Random(3);
        for (Kernels k : new Kernels[] {new ScalarKernels(), new VectorKernels()}) {
            for (int n : new int[] {1, 17, 4099, 70001}) {
                float[] a = uniform(random, n, -2f, 2f);
                float[] b = uniform(random, n, -2f, 2f);
                for (BinaryFn fn : new BinaryFn[] {BinaryFn.ADD, BinaryFn.MUL}) {
                    for (UnaryFn act : new UnaryFn[] {UnaryFn.RELU, UnaryFn.TANH, UnaryFn.LEAKY_RELU, UnaryFn.SCALE}) {
                        float[] expected = separate(k, fn, act, a, b);
                        withBudgets(() -> assertArrayEquals(expected, fused(k, fn, act, a, b),
                                k.name() + " " + fn + " " + act + " n=" + n));
                    }
                }
            }
        }
    }
}
