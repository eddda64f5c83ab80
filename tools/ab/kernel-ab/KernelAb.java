package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;
import java.util.Random;

/**
 * Old and new convolution and gemm code alternating in one JVM, for hosts whose speed moves too much between runs
 * for two jars to be compared. {@code kernel-ab.sh} copies an older revision's {@code VectorGemm} and
 * {@code VectorConv} beside this class as {@code VectorGemmOld} and {@code VectorConvOld}; every round times each
 * case once with the old code and once with the new, and the median of the per-round ratios is printed.
 * Not part of the build: a scratch tool run from the command line.
 */
public final class KernelAb {
    private KernelAb() {
    }

    /** One timed case: the old and the new code for the same call. */
    private interface Case {
        void run(boolean useNew);
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Random random = new Random(1);
        // Dense products at W1's shapes: NN forward, TN weight gradient, NT input gradient.
        int[][] products = {{128, 512, 784, 0}, {784, 512, 128, 1}, {128, 784, 512, 2}, {512, 512, 128, 1}};
        for (int[] s : products) {
            int m = s[0];
            int n = s[1];
            int k = s[2];
            boolean transA = s[3] == 1;
            boolean transB = s[3] == 2;
            float[] a = fill(random, m * k);
            float[] b = fill(random, k * n);
            float[] c = new float[m * n];
            String name = String.format("gemm %s %dx%dx%d", transA ? "TN" : transB ? "NT" : "NN", m, n, k);
            time(name, 2.0 * m * n * k, rounds, useNew -> {
                GemmArgs g = GemmArgs.get().product(transA, transB, m, n, k).a(a, 0, transA ? m : k)
                        .b(b, 0, transB ? k : n).c(c, 0, n);
                if (useNew) {
                    VectorGemm.gemm(g);
                } else {
                    VectorGemmOld.gemm(g);
                }
            });
        }
        // 3x3 convolutions at batch 128 (height, width, in channels, out channels, stride, and 1 for valid
        // padding; else same): Z1's, Z2's and W2's second.
        int[][] convs = {{28, 28, 32, 32, 1}, {14, 14, 32, 32, 1}, {14, 14, 64, 64, 1}, {7, 7, 64, 64, 1},
            {28, 28, 16, 32, 2}, {14, 14, 32, 64, 2}, {14, 14, 32, 64, 1}, {13, 13, 32, 64, 1, 1}, {28, 28, 16, 16, 1}};
        for (int[] s : convs) {
            int stride = s[4];
            boolean valid = s.length > 5 && s[5] == 1;
            int outH = valid ? (s[0] - 3) / stride + 1 : s[0] / stride;
            int outW = valid ? (s[1] - 3) / stride + 1 : s[1] / stride;
            int pad = stride == 1 && !valid ? 1 : 0;
            ConvGeometry g = new ConvGeometry(128, s[0], s[1], s[2], 3, 3, s[3], stride, stride, pad, pad, outH,
                    outW);
            float[] x = fill(random, 128 * s[0] * s[1] * s[2]);
            float[] w = fill(random, 9 * s[2] * s[3]);
            float[] bias = fill(random, s[3]);
            float[] dy = fill(random, 128 * outH * outW * s[3]);
            float[] y = new float[dy.length];
            float[] dx = new float[x.length];
            float[] dw = new float[w.length];
            double flops = 2.0 * 128 * outH * outW * 9 * s[2] * s[3];
            String shape = String.format("%dx%dx%d->%d s%d%s", s[0], s[1], s[2], s[3], stride, valid ? " valid" : "");
            time("conv forward " + shape, flops, rounds, useNew -> {
                if (useNew) {
                    VectorConv.conv2d(g, x, 0, w, 0, bias, 0, null, 0f, y, 0);
                } else {
                    VectorConvOld.conv2d(g, x, 0, w, 0, bias, 0, null, 0f, y, 0);
                }
            });
            time("conv input gradient " + shape, flops, rounds, useNew -> {
                if (useNew) {
                    VectorConv.backwardInput(g, dy, 0, w, 0, dx, 0);
                } else {
                    VectorConvOld.backwardInput(g, dy, 0, w, 0, dx, 0);
                }
            });
            time("conv filter gradient " + shape, flops, rounds, useNew -> {
                if (useNew) {
                    VectorConv.backwardFilter(g, x, 0, dy, 0, dw, 0);
                } else {
                    VectorConvOld.backwardFilter(g, x, 0, dy, 0, dw, 0);
                }
            });
        }
    }

    /** Each round: the old code, then the new, each for about 1 GFLOP; the first half of the rounds warms up. */
    private static void time(String name, double flops, int rounds, Case c) {
        int calls = (int) Math.max(3, 1e9 / flops);
        double[][] rates = new double[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int v = 0; v < 2; v++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    c.run(v == 1);
                }
                rates[v][r] = flops * calls / (System.nanoTime() - t0);
            }
        }
        int from = rounds / 2;
        double[] ratios = new double[rounds - from];
        for (int r = from; r < rounds; r++) {
            ratios[r - from] = rates[1][r] / rates[0][r];
        }
        System.out.printf("%-36s old %6.1f  new %6.1f GFLOP/s (medians)  new/old %.3f (median of rounds)%n", name,
                median(Arrays.copyOfRange(rates[0], from, rounds)), median(Arrays.copyOfRange(rates[1], from, rounds)),
                median(ratios));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static float[] fill(Random random, int size) {
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            values[i] = random.nextFloat() - 0.5f;
        }
        return values;
    }
}
