package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.LayerGradientCheckTest.checkLayer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.data.RandomTransform;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.RandomContrast;
import dev.brisk.nn.layers.RandomRotation;
import dev.brisk.nn.layers.RandomTranslation;
import dev.brisk.nn.layers.RandomZoom;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keras 3's random augmentation layers: identity outside training; in training the pipeline map function's
 * transformation (itself checked against Keras' formulas in ImageAugmentationTest) drawn from the step's seed mixed
 * with the layer's, a new draw each step; gradients by finite differences, eager equal to compiled, vector and scalar
 * kernels.
 */
class RandomAugmentationLayersTest {
    private static final float STEP_SEED = 3f;

    @BeforeEach
    void seed() {
        RandomSeed.set(7);
    }

    private static Tensor run(Layer layer, boolean training, float stepSeed, Tensor x) {
        Graph g = Graph.eager(GradCheck.kernels("default"));
        return layer.invoke(g, List.of(g.input("x", x)), new CallContext(training, g.input("seed",
                Tensor.scalar(stepSeed)))).value();
    }

    /** The generator the layer's op seeds: the step's seed mixed with the layer's, as Dropout's mask. */
    private static SplittableRandom generator(Layer layer, float stepSeed) {
        return new SplittableRandom(((long) stepSeed) * 0x9E3779B97F4A7C15L ^ layer.seed().getAsLong());
    }

    private static void assertSameValues(String what, Tensor expected, Tensor actual) {
        assertEquals(expected.shape(), actual.shape(), what);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), what + " element " + i);
        }
    }

    private static void asMapFunction(String what, Layer layer, RandomTransform<Tensor, Tensor> map, Tensor x) {
        assertSameValues(what + " inference", x, run(layer, false, STEP_SEED, x));
        Tensor y = run(layer, true, STEP_SEED, x);
        assertSameValues(what + " training", map.apply(x, generator(layer, STEP_SEED)), y);
        Tensor next = run(layer, true, STEP_SEED + 1, x);
        boolean differs = false;
        for (int i = 0; i < y.size(); i++) {
            differs |= y.get(i) != next.get(i);
        }
        assertTrue(differs, what + ": the next step's seed draws another transformation");
    }

    @Test
    void trainingAppliesTheMapFunctionsDrawsAndInferenceIsTheIdentity() {
        Tensor x = GradCheck.uniform(1, 0, 255, 4, 6, 5, 3);
        asMapFunction("flip", Layers.randomFlip("horizontal_and_vertical"),
                new dev.brisk.data.preprocessing.RandomFlip(
                        dev.brisk.data.preprocessing.RandomFlip.Mode.HORIZONTAL_AND_VERTICAL, 0), x);
        asMapFunction("rotation", Layers.randomRotation(0.2),
                new dev.brisk.data.preprocessing.RandomRotation(0.2, 0), x);
        asMapFunction("rotation constant nearest",
                new RandomRotation(-0.1, 0.3, FillMode.CONSTANT, 5f, Interpolation.NEAREST, null),
                new dev.brisk.data.preprocessing.RandomRotation(-0.1, 0.3, FillMode.CONSTANT, 5f,
                        Interpolation.NEAREST, 0), x);
        asMapFunction("zoom", Layers.randomZoom(0.3), new dev.brisk.data.preprocessing.RandomZoom(0.3, 0), x);
        asMapFunction("zoom with width",
                new RandomZoom(new double[] {-0.2, 0.4}, new double[] {0.1, 0.5}, FillMode.REFLECT, 0f,
                        Interpolation.BILINEAR, null),
                new dev.brisk.data.preprocessing.RandomZoom(-0.2, 0.4, new double[] {0.1, 0.5}, FillMode.REFLECT, 0f,
                        Interpolation.BILINEAR, 0), x);
        asMapFunction("translation", Layers.randomTranslation(0.2, 0.3),
                new dev.brisk.data.preprocessing.RandomTranslation(0.2, 0.3, 0), x);
        asMapFunction("contrast", Layers.randomContrast(0.5),
                new dev.brisk.data.preprocessing.RandomContrast(0.5, 0), x);
    }

    @Test
    void contrastAsKerasFormula() {
        // Keras 3: (x - mean_hw(x)) * k + mean, clipped to value_range, one k per image from U[1 - lower, 1 + upper].
        Tensor x = GradCheck.uniform(2, 0, 255, 3, 4, 5, 2);
        RandomContrast layer = new RandomContrast(0.6, 0.9, 10f, 240f, null);
        Tensor y = run(layer, true, STEP_SEED, x);
        SplittableRandom r = generator(layer, STEP_SEED);
        for (int n = 0; n < 3; n++) {
            float k = (float) (0.4 + (1.9 - 0.4) * r.nextDouble());
            for (int c = 0; c < 2; c++) {
                double sum = 0;
                for (int p = 0; p < 20; p++) {
                    sum += x.get((n * 20 + p) * 2 + c);
                }
                float mean = (float) (sum / 20);
                for (int p = 0; p < 20; p++) {
                    int i = (n * 20 + p) * 2 + c;
                    float expected = Math.min(Math.max((x.get(i) - mean) * k + mean, 10f), 240f);
                    assertEquals(expected, y.get(i), 1e-4f, "image " + n + " channel " + c + " pixel " + p);
                }
            }
        }
    }

    @Test
    void translationAsShiftByWholePixels() {
        // A translation drawn as exactly one pixel down and two right (factors 1/5 of 5 rows, 2/6 of 6 columns)
        // under constant fill moves every pixel: y[r][c] = x[r - 1][c - 2], the fill value where that is outside.
        Tensor x = GradCheck.uniform(3, -1, 1, 2, 5, 6, 1);
        Layer layer = new RandomTranslation(new double[] {0.2, 0.2}, new double[] {2 / 6.0, 2 / 6.0},
                FillMode.CONSTANT, -9f, Interpolation.BILINEAR, null);
        Tensor y = run(layer, true, STEP_SEED, x);
        for (int n = 0; n < 2; n++) {
            for (int r = 0; r < 5; r++) {
                for (int c = 0; c < 6; c++) {
                    float expected = r < 1 || c < 2 ? -9f : x.get((n * 5 + r - 1) * 6 + c - 2);
                    assertEquals(expected, y.get((n * 5 + r) * 6 + c), 1e-6f, "image " + n + " (" + r + ", " + c
                            + ")");
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void gradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Tensor x = gaussian(11, 1, 3, 5, 4, 2);
        checkLayer(k, "random flip", Layers.randomFlip("horizontal_and_vertical"), true, null, x);
        checkLayer(k, "random rotation", Layers.randomRotation(0.25), true, null, x);
        checkLayer(k, "random rotation constant nearest",
                new RandomRotation(-0.3, 0.3, FillMode.CONSTANT, 2f, Interpolation.NEAREST, null), true, null, x);
        checkLayer(k, "random zoom", new RandomZoom(new double[] {-0.4, 0.5}, new double[] {-0.3, 0.2},
                FillMode.CONSTANT, 0f, Interpolation.BILINEAR, null), true, null, x);
        checkLayer(k, "random translation", Layers.randomTranslation(0.3, 0.4), true, null, x);
        checkLayer(k, "random contrast", new RandomContrast(0.5, 0.5, -100f, 100f, null), true, null, x);
        // Clipping: values pushed past the range get no gradient. The input is chosen so that some values clip and
        // none lies within a finite-difference step of a bound (the unclipped values come from the same draws).
        RandomContrast clipped = new RandomContrast(0.2, 1.0, -1.2f, 1.2f, null);
        Layer wide = new RandomContrast(0.2, 1.0, -1e6f, 1e6f, null).setSeed(clipped.seed().getAsLong());
        Tensor spread = null;
        for (int s = 12; spread == null; s++) {
            Tensor candidate = GradCheck.distinct(s, 0.05, -0.3, 3, 5, 4, 2);
            Tensor v = run(wide, true, 1234f, candidate);
            double nearest = Double.MAX_VALUE;
            int outside = 0;
            for (int i = 0; i < v.size(); i++) {
                nearest = Math.min(nearest, Math.abs(Math.abs(v.get(i)) - 1.2));
                outside += Math.abs(v.get(i)) > 1.2 ? 1 : 0;
            }
            if (nearest > 0.05 && outside > 5 && outside < v.size() - 5) {
                spread = candidate;
            }
        }
        checkLayer(k, "random contrast clipped", clipped, true, null, spread);
    }

    @Test
    void refusals() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Layers.randomFlip("diagonal"));
        assertTrue(e.getMessage().contains("diagonal"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Layers.randomZoom(1.5));
        assertTrue(e.getMessage().contains("height_factor"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Layers.randomRotation(0.1).outputShape(List.of(Shape.of(4, 4))));
        assertTrue(e.getMessage().contains("RandomRotation") && e.getMessage().contains("height, width"),
                e.getMessage());
        assertFalse(Layers.randomContrast(0.5).seed().isEmpty());
    }
}
