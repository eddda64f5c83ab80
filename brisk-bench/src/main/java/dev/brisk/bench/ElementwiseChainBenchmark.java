package dev.brisk.bench;

import dev.brisk.backend.Backends;
import dev.brisk.backend.ElementwiseChain;
import dev.brisk.backend.ElementwiseChain.Broadcast;
import dev.brisk.backend.ElementwiseChain.Step;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.ThreadBudget;
import java.util.ArrayList;
import java.util.List;
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
 * A chain of {@code ops} cheap elementwise ops over an activation of 128 x 8192 floats (4 MB, past L2): as separate
 * unary and binary calls, each a pass over memory, and as one {@link Kernels#elementwiseChain} call. The ops cycle
 * through a scale, the add of a per-channel bias, a product with a second activation and a relu, the kind a layer
 * and its gradient make. Separate calls should take about {@code ops} times one pass, the chain about one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class ElementwiseChainBenchmark {
    private static final int ROWS = 128;
    private static final int COLS = 8192;
    private static final int[] SHAPE = {ROWS, COLS};
    private static final int[] FULL = {COLS, 1};
    private static final int[] ROW = {0, 1};

    /** Ops in the chain. */
    @Param({"1", "2", "4", "6"})
    public int ops;

    @Param({"1", "2"})
    public int threads;

    private final Kernels kernels = Backends.get();
    private float[] x;
    private float[] other;
    private float[] bias;
    private float[] a;
    private float[] b;
    private ElementwiseChain chain;
    private float[][] inputs;
    private final int[] offsets = new int[3];

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(1);
        x = BenchArrays.random(r, ROWS * COLS);
        other = BenchArrays.random(r, ROWS * COLS);
        bias = BenchArrays.random(r, COLS);
        a = new float[ROWS * COLS];
        b = new float[ROWS * COLS];
        // Inputs: 0 the activation, 1 the second activation, 2 the bias.
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < ops; i++) {
            int in = i == 0 ? 0 : ElementwiseChain.PREVIOUS;
            steps.add(switch (i % 4) {
                case 0 -> Step.unary(UnaryFn.SCALE, 0.5f, in);
                case 1 -> Step.binary(BinaryFn.ADD, 0f, in, 2);
                case 2 -> Step.binary(BinaryFn.MUL, 0f, 1, in);
                default -> Step.unary(UnaryFn.RELU, 0f, in);
            });
        }
        chain = new ElementwiseChain(steps, List.of(Broadcast.FULL, Broadcast.FULL, Broadcast.ROW), ROWS * COLS,
                COLS);
        inputs = new float[][] {x, other, bias};
        ThreadBudget.set(threads);
    }

    @TearDown
    public void tearDown() {
        ThreadBudget.reset();
    }

    /** The ops as separate calls, alternating between two buffers as a plan's pool would. */
    @Benchmark
    public float[] separate() {
        float[] in = x;
        float[] out = a;
        for (int i = 0; i < ops; i++) {
            switch (i % 4) {
                case 0 -> kernels.unary(UnaryFn.SCALE, 0.5f, in, 0, out, 0, ROWS * COLS);
                case 1 -> kernels.binary(BinaryFn.ADD, 0f, in, 0, FULL, bias, 0, ROW, out, 0, SHAPE);
                case 2 -> kernels.binary(BinaryFn.MUL, 0f, other, 0, FULL, in, 0, FULL, out, 0, SHAPE);
                default -> kernels.unary(UnaryFn.RELU, 0f, in, 0, out, 0, ROWS * COLS);
            }
            in = out;
            out = out == a ? b : a;
        }
        return in;
    }

    /** The ops as one chain. */
    @Benchmark
    public float[] chained() {
        kernels.elementwiseChain(chain, inputs, offsets, a, 0);
        return a;
    }
}
