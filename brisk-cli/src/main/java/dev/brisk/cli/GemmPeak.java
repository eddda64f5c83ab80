package dev.brisk.cli;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Measures the kernel backend's matrix-multiply speed in this process, as the yardstick the benchmark divides the
 * workloads' useful FLOP/s by. Each figure is the best of several timed rounds after a warm-up. {@code brisk train
 * --gemm-peak} measures it right after training, in the run's own JVM and at its thread budget, so that a run's
 * percentage compares two figures from the same minutes of a host whose speed drifts.
 */
final class GemmPeak {
    /** One measured shape: {@code C[m x n] = A[m x k] B[k x n]}. */
    record Shape(String name, int m, int n, int k) {
        double flops() {
            return 2.0 * m * n * k;
        }
    }

    /** A large square, where a gemm reaches its peak. */
    static final Shape SQUARE = new Shape("square 1024", 1024, 1024, 1024);
    /** The MLP's biggest product: a batch of 128 through Dense(784 -> 512). */
    static final Shape MLP = new Shape("mlp 128x512x784", 128, 512, 784);

    private GemmPeak() {
    }

    /** {@code gemm_square_gflops=... gemm_mlp_gflops=...}: fields of the TIMING line, at the budget in force. */
    static String fields() {
        return String.format(Locale.ROOT, "gemm_square_gflops=%.1f gemm_mlp_gflops=%.1f", gflops(SQUARE),
                gflops(MLP));
    }

    /** GFLOP/s of {@code shape} at the thread budget in force. */
    static double gflops(Shape shape) {
        Kernels k = Backends.get();
        SplittableRandom r = new SplittableRandom(1);
        float[] a = new float[shape.m() * shape.k()];
        float[] b = new float[shape.k() * shape.n()];
        float[] c = new float[shape.m() * shape.n()];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) r.nextDouble(-1, 1);
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (float) r.nextDouble(-1, 1);
        }
        Runnable call = () -> k.gemm(false, false, shape.m(), shape.n(), shape.k(), a, 0, shape.k(), b, 0,
                shape.n(), c, 0, shape.n(), false);
        long start = System.nanoTime();
        while (System.nanoTime() - start < 400_000_000L) {
            call.run();
        }
        double best = 0;
        for (int round = 0; round < 5; round++) {
            int reps = 0;
            long t0 = System.nanoTime();
            long elapsed;
            do {
                call.run();
                reps++;
                elapsed = System.nanoTime() - t0;
            } while (elapsed < 100_000_000L);
            best = Math.max(best, shape.flops() * reps / elapsed);
        }
        return best;
    }
}
