package dev.brisk.bench;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.image.AffineMaps;
import dev.brisk.ops.image.AffineSampler;
import dev.brisk.ops.image.FactorRange;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.ImageAugment;
import dev.brisk.ops.image.Interpolation;
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
 * The random image augmentations' kernel (the IMAGE_AUGMENT op of RandomFlip, RandomRotation, RandomZoom and
 * RandomTranslation, and its gradient) on one batch of 128 Fashion-MNIST-sized images, 28 x 28 x 1, with Keras'
 * defaults (reflect fill, bilinear; flips nearest): the time per batch, to set beside a training step's, at 1 and 2
 * threads ({@code AugmentBatch} splits the images).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class AugmentBenchmark {
    private static final int IMAGES = 128;
    private static final int SIDE = 28;

    /** Which augmentation. */
    @Param({"flip", "rotation", "zoom", "translation"})
    public String augment;

    @Param({"1", "2"})
    public int threads;

    private final Kernels kernels = Backends.get();
    private ImageAugment a;
    private float[] x;
    private float[] dy;
    private float[] y;
    private long seed;

    @Setup
    public void setUp() {
        ThreadBudget.set(threads);
        SplittableRandom r = new SplittableRandom(1);
        x = BenchArrays.random(r, IMAGES * SIDE * SIDE);
        dy = BenchArrays.random(r, IMAGES * SIDE * SIDE);
        y = new float[IMAGES * SIDE * SIDE];
        AffineSampler bilinear = new AffineSampler(FillMode.REFLECT, 0f, Interpolation.BILINEAR);
        FactorRange tenth = new FactorRange(-0.1, 0.1);
        a = switch (augment) {
            case "flip" -> ImageAugment.affine("RandomFlip",
                    new AffineSampler(FillMode.CONSTANT, 0f, Interpolation.NEAREST), AffineMaps.flips(true, true));
            case "rotation" -> ImageAugment.affine("RandomRotation", bilinear, AffineMaps.rotations(tenth));
            case "zoom" -> ImageAugment.affine("RandomZoom", bilinear, AffineMaps.zooms(tenth, null));
            case "translation" -> ImageAugment.affine("RandomTranslation", bilinear,
                    AffineMaps.translations(tenth, tenth));
            default -> throw new IllegalArgumentException("augment " + augment);
        };
    }

    @TearDown
    public void tearDown() {
        ThreadBudget.reset();
    }

    /** One batch transformed, a fresh seed each call as each training step draws anew. */
    @Benchmark
    public float[] forward() {
        kernels.imageAugment(a, seed++, x, 0, y, 0, IMAGES, SIDE, SIDE, 1);
        return y;
    }

    /** The gradient of one batch's transformation. */
    @Benchmark
    public float[] backward() {
        kernels.imageAugmentBackward(a, seed++, x, 0, dy, 0, y, 0, IMAGES, SIDE, SIDE, 1);
        return y;
    }
}
