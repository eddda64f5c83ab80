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
 * Dropout's forward kernel (a SplitMix64 draw per element, the mask and the scaled output) at Z4's size, one
 * 128x1024 batch of activations, on the scalar reference and on the vector backend in the same JVM. Bytes moved
 * per call are {@code 12 n}, so in cache the hash, not memory, sets the time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class DropoutBenchmark {
    /** Elements per call. */
    @Param({"131072"})
    public int size;

    @Param({"1", "2"})
    public int threads;

    @Param({"jvm-scalar", "jvm-vector"})
    public String kernels;

    private Kernels k;
    private float[] x;
    private float[] mask;
    private float[] y;
    private long seed;

    @Setup
    public void setUp() {
        k = kernels.equals("jvm-scalar") ? Backends.scalar() : Backends.get();
        x = BenchArrays.random(new SplittableRandom(1), size);
        mask = new float[size];
        y = new float[size];
        ThreadBudget.set(threads);
    }

    @TearDown
    public void tearDown() {
        ThreadBudget.reset();
    }

    @Benchmark
    public float[] dropout() {
        k.dropout(0.3f, seed++, x, 0, mask, 0, y, 0, size);
        return y;
    }
}
