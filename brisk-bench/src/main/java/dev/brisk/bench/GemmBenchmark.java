package dev.brisk.bench;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.parallel.ThreadBudget;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The kernels' gemm at the shapes W1 (the MLP) runs forward and backward, and a large square. Time per call; GFLOP/s
 * is {@code 2 m n k / time} (printed by {@code brisk-bench/run}, or divide by hand).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class GemmBenchmark {
    /** m x n x k and the transposes: NN forward, TN weight gradient, NT input gradient. */
    @Param({"128x512x784:NN", "128x512x512:NN", "784x512x128:TN", "512x512x128:TN", "128x784x512:NT",
        "128x512x512:NT", "1024x1024x1024:NN"})
    public String shape;

    @Param({"1", "2"})
    public int threads;

    private final Kernels kernels = Backends.get();
    private int m;
    private int n;
    private int k;
    private boolean transA;
    private boolean transB;
    private float[] a;
    private float[] b;
    private float[] c;

    @Setup
    public void setUp() {
        String[] parts = shape.split("[x:]");
        m = Integer.parseInt(parts[0]);
        n = Integer.parseInt(parts[1]);
        k = Integer.parseInt(parts[2]);
        transA = parts[3].charAt(0) == 'T';
        transB = parts[3].charAt(1) == 'T';
        SplittableRandom r = new SplittableRandom(1);
        a = BenchArrays.random(r, m * k);
        b = BenchArrays.random(r, k * n);
        c = new float[m * n];
        ThreadBudget.set(threads);
    }

    @TearDown
    public void tearDown() {
        ThreadBudget.reset();
    }


    @Benchmark
    public float[] gemm() {
        kernels.gemm(transA, transB, m, n, k, a, 0, transA ? m : k, b, 0, transB ? k : n, c, 0, n, false);
        return c;
    }
}
