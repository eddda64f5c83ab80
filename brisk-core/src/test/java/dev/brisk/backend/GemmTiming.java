package dev.brisk.backend;

import dev.brisk.ops.ConvGeometry;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;

/**
 * Prints gemm GFLOP/s of both backends for the shapes the MLP and CNN examples run (a main, not a test). Run with
 * {@code java --add-modules jdk.incubator.vector -cp target/classes:target/test-classes dev.brisk.backend.GemmTiming}.
 * Each figure is the best of several runs of about 50 ms, after a warm-up.
 */
public final class GemmTiming {
    /** m, n, k, transA, transB, and what the product is. */
    private static final Object[][] SHAPES = {
        {128, 512, 784, false, false, "MLP dense 784->512 forward"},
        {128, 512, 512, false, false, "MLP dense 512->512 forward"},
        {128, 10, 512, false, false, "MLP dense 512->10 forward"},
        {784, 512, 128, true, false, "MLP dW = x^T dy (784x512)"},
        {512, 512, 128, true, false, "MLP dW = x^T dy (512x512)"},
        {128, 512, 512, false, true, "MLP dx = dy W^T (512x512)"},
        {128, 784, 512, false, true, "MLP dx = dy W^T (784<-512)"},
        {86528, 32, 9, false, false, "CNN conv1 forward (im2col)"},
        {9, 32, 86528, true, false, "CNN conv1 dW = cols^T dy"},
        {15488, 64, 288, false, false, "CNN conv2 forward (im2col)"},
        {288, 64, 15488, true, false, "CNN conv2 dW = cols^T dy"},
        {15488, 288, 64, false, true, "CNN conv2 dcols = dy W^T"},
        {512, 512, 512, false, false, "square 512"},
    };

    private GemmTiming() {
    }

    public static void main(String[] args) {
        Kernels vector = Backends.get();
        Kernels scalar = Backends.scalar();
        // Let the JIT compile every path before anything is timed.
        for (Object[] s : SHAPES) {
            measure(vector, (int) s[0], (int) s[1], (int) s[2], (boolean) s[3], (boolean) s[4], 1);
        }
        System.out.printf("%-28s %-22s %9s %9s %9s %9s%n", "", "m x n x k (tA tB)", "vec 1T", "vec 2T",
                "scal 1T", "scal 2T");
        for (Object[] s : SHAPES) {
            int m = (int) s[0];
            int n = (int) s[1];
            int k = (int) s[2];
            boolean ta = (boolean) s[3];
            boolean tb = (boolean) s[4];
            double[] gflops = new double[4];
            int i = 0;
            for (Kernels kernels : new Kernels[] {vector, scalar}) {
                for (int threads = 1; threads <= 2; threads++) {
                    ThreadBudget.set(threads);
                    gflops[i++] = measure(kernels, m, n, k, ta, tb, kernels == scalar ? 1 : 3);
                }
            }
            ThreadBudget.reset();
            System.out.printf("%-28s %-22s %9.1f %9.1f %9.1f %9.1f%n", s[5],
                    m + "x" + n + "x" + k + (ta ? " T" : " N") + (tb ? "T" : "N"),
                    gflops[0], gflops[1], gflops[2], gflops[3]);
        }
        convolutions(vector);
    }

    /** Whole convolution kernels (im2col or col2im included) of the CNN example, batch 128, vector backend. */
    private static void convolutions(Kernels k) {
        ConvGeometry[] convs = {
            new ConvGeometry(128, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26),
            new ConvGeometry(128, 13, 13, 32, 3, 3, 64, 1, 1, 0, 0, 11, 11),
        };
        System.out.printf("%nconv2d, vector backend, GFLOP/s%-21s %9s %9s%n", "", "1T", "2T");
        for (ConvGeometry g : convs) {
            float[] x = new float[g.batch() * g.height() * g.width() * g.channels()];
            float[] w = new float[g.kernelH() * g.kernelW() * g.channels() * g.outChannels()];
            float[] y = new float[g.batch() * g.outH() * g.outW() * g.outChannels()];
            java.util.Arrays.fill(x, 0.5f);
            java.util.Arrays.fill(w, 0.25f);
            java.util.Arrays.fill(y, 0.125f);
            double flop = 2.0 * y.length * w.length / g.outChannels();
            String shape = g.height() + "x" + g.width() + "x" + g.channels() + " -> " + g.outChannels();
            String[] names = {"forward", "backward input", "backward filter"};
            Runnable[] kernels = {
                () -> k.conv2d(g, x, 0, w, 0, y, 0),
                () -> k.conv2dBackwardInput(g, y, 0, w, 0, x, 0),
                () -> k.conv2dBackwardFilter(g, x, 0, y, 0, w, 0),
            };
            for (int i = 0; i < kernels.length; i++) {
                double[] gflops = new double[2];
                for (int threads = 1; threads <= 2; threads++) {
                    ThreadBudget.set(threads);
                    gflops[threads - 1] = flop / bestNanos(kernels[i]);
                }
                ThreadBudget.reset();
                System.out.printf("  %-22s %-24s %9.1f %9.1f%n", shape, names[i], gflops[0], gflops[1]);
            }
        }
    }

    /** The fastest of a few runs after a warm-up of about 100 ms. */
    private static double bestNanos(Runnable r) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < 100_000_000L) {
            r.run();
        }
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            r.run();
            best = Math.min(best, System.nanoTime() - t0);
        }
        return best;
    }

    /** Best GFLOP/s over {@code runs} timed runs of about 50 ms each. */
    private static double measure(Kernels kernels, int m, int n, int k, boolean ta, boolean tb, int runs) {
        Random random = new Random(1);
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        float[] c = new float[m * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = random.nextFloat() - 0.5f;
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = random.nextFloat() - 0.5f;
        }
        int lda = ta ? m : k;
        int ldb = tb ? k : n;
        double flop = 2.0 * m * n * k;
        long start = System.nanoTime();
        int reps = 0;
        while (System.nanoTime() - start < 50_000_000L || reps < 2) {
            kernels.gemm(ta, tb, m, n, k, a, 0, lda, b, 0, ldb, c, 0, n, false);
            reps++;
        }
        double best = 0;
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < reps; i++) {
                kernels.gemm(ta, tb, m, n, k, a, 0, lda, b, 0, ldb, c, 0, n, false);
            }
            best = Math.max(best, flop * reps / (System.nanoTime() - t0));
        }
        return best;
    }
}
