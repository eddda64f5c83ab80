package dev.brisk.bench;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.parallel.ThreadBudget;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * The fused Adam update at the sizes of W1's two large kernels (784x512 and 512x512). It reads four arrays and
 * writes three: in cache it is bound by its square roots and divisions, from memory by bandwidth. With
 * {@code evict} every call first finds its arrays pushed out of cache by 32 MB of other writes, as in training,
 * where a step's other layers run in between. Bytes moved per call are {@code 28 n}; divide by the time for GB/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class OptimizerBenchmark {
    /** Parameters updated per call. */
    @Param({"401408", "262144"})
    public int size;

    @Param({"1", "2"})
    public int threads;

    @Param({"false", "true"})
    public boolean evict;

    private final Kernels kernels = Backends.get();
    private float[] p;
    private float[] g;
    private float[] m;
    private float[] v;
    private final float[] other = new float[8 << 20];

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(1);
        p = BenchArrays.random(r, size);
        g = BenchArrays.random(r, size);
        m = new float[size];
        v = new float[size];
        ThreadBudget.set(threads);
    }

    @Setup(Level.Invocation)
    public void evictCaches() {
        if (evict) {
            Arrays.fill(other, 1f);
        }
    }

    @TearDown
    public void tearDown() {
        ThreadBudget.reset();
    }

    @Benchmark
    public float[] adam() {
        kernels.adamStep(p, 0, g, 0, m, 0, v, 0, size, 1e-3f, 0.9f, 0.999f, 1e-7f, 0f);
        return p;
    }
}
