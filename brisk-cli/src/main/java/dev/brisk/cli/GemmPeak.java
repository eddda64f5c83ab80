package dev.brisk.cli;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.parallel.ThreadBudget;
import java.util.SplittableRandom;

/**
 * Measures the kernel backend's matrix-multiply speed in this process, as the yardstick the benchmark divides the
 * workloads' useful FLOP/s by. Each figure is the best of several timed rounds after a warm-up.
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

    /** GFLOP/s of {@code shape} with the thread budget set to {@code threads} (restored afterwards). */
    static double gflops(Shape shape, int threads) {
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
        ThreadBudget.set(threads);
        try {
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
        } finally {
            ThreadBudget.reset();
        }
    }
}
