package dev.brisk.bench;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
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
 * The two convolutions of W2 and those of the model zoo's Z1 (batch 128): forward, gradient of the input and of the
 * filter, im2col/col2im included. GFLOP/s is {@code 2 x outputs x kh kw cin / time}, the same for each of the three
 * passes: conv1 2 x 2,768,896 x 9 = 0.0498 GFLOP, conv2 2 x 991,232 x 288 = 0.571 GFLOP per call; Z1's 3x3 layers
 * 0.462 GFLOP each (z1-28x16, z1-14x32, z1-7x64), its stride-2 ones 0.231 (z1-s2-16to32, z1-s2-32to64), its 1x1
 * projections 0.0257 (z1-1x1-16to32, z1-1x1-32to64), its stem 0.0289 (z1-stem).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class ConvBenchmark {
    @Param({"conv1", "conv2", "z1-stem", "z1-28x16", "z1-s2-16to32", "z1-14x32", "z1-s2-32to64", "z1-7x64",
        "z1-1x1-16to32", "z1-1x1-32to64"})
    public String layer;

    @Param({"1", "2"})
    public int threads;

    private final Kernels kernels = Backends.get();
    private ConvGeometry g;
    private float[] x;
    private float[] w;
    private float[] y;

    @Setup
    public void setUp() {
        g = geometry(layer);
        SplittableRandom r = new SplittableRandom(1);
        x = BenchArrays.random(r, g.batch() * g.height() * g.width() * g.channels());
        w = BenchArrays.random(r, g.kernelH() * g.kernelW() * g.channels() * g.outChannels());
        y = BenchArrays.random(r, g.batch() * g.outH() * g.outW() * g.outChannels());
        ThreadBudget.set(threads);
    }

    /**
     * The layer's geometry, batch 128. Z1's "same" convolutions pad as TensorFlow does: one row and column on each
     * side at stride 1, one after the image at stride 2.
     */
    static ConvGeometry geometry(String layer) {
        return switch (layer) {
            case "conv1" -> new ConvGeometry(128, 28, 28, 1, 3, 3, 32, 1, 1, 0, 0, 26, 26);
            case "conv2" -> new ConvGeometry(128, 13, 13, 32, 3, 3, 64, 1, 1, 0, 0, 11, 11);
            case "z1-stem" -> new ConvGeometry(128, 28, 28, 1, 3, 3, 16, 1, 1, 1, 1, 28, 28);
            case "z1-28x16" -> new ConvGeometry(128, 28, 28, 16, 3, 3, 16, 1, 1, 1, 1, 28, 28);
            case "z1-s2-16to32" -> new ConvGeometry(128, 28, 28, 16, 3, 3, 32, 2, 2, 0, 0, 14, 14);
            case "z1-14x32" -> new ConvGeometry(128, 14, 14, 32, 3, 3, 32, 1, 1, 1, 1, 14, 14);
            case "z1-s2-32to64" -> new ConvGeometry(128, 14, 14, 32, 3, 3, 64, 2, 2, 0, 0, 7, 7);
            case "z1-7x64" -> new ConvGeometry(128, 7, 7, 64, 3, 3, 64, 1, 1, 1, 1, 7, 7);
            case "z1-1x1-16to32" -> new ConvGeometry(128, 28, 28, 16, 1, 1, 32, 2, 2, 0, 0, 14, 14);
            case "z1-1x1-32to64" -> new ConvGeometry(128, 14, 14, 32, 1, 1, 64, 2, 2, 0, 0, 7, 7);
            default -> throw new IllegalArgumentException("ConvBenchmark: unknown layer '" + layer + "'");
        };
    }

    @TearDown
    public void tearDown() {
        ThreadBudget.reset();
    }


    @Benchmark
    public float[] forward() {
        kernels.conv2d(g, x, 0, w, 0, y, 0);
        return y;
    }

    @Benchmark
    public float[] backwardInput() {
        kernels.conv2dBackwardInput(g, y, 0, w, 0, x, 0);
        return x;
    }

    @Benchmark
    public float[] backwardFilter() {
        kernels.conv2dBackwardFilter(g, x, 0, y, 0, w, 0);
        return w;
    }
}
