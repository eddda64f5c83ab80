package dev.brisk.data.preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.Batch;
import dev.brisk.data.ElementwiseTransform;
import dev.brisk.data.Pipeline;
import dev.brisk.data.Sample;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PreprocessingTest {

    /** A (2, 3, 1) image 0..5, row-major. */
    private static Tensor image() {
        return Tensor.of(new float[] {0, 1, 2, 3, 4, 5}, 2, 3, 1);
    }

    @Test
    void rescalingMultipliesOrDividesExactly() {
        assertArrayEquals(new float[] {-1, 1}, new Rescaling(1 / 127.5f, -1).apply(Tensor.of(new float[] {0, 255}, 2))
                .toArray(), 1e-6f);
        Tensor pixels = Tensor.zeros(256);
        for (int i = 0; i < 256; i++) {
            pixels.set(i, i);
        }
        Tensor divided = Rescaling.divideBy(255).apply(pixels);
        for (int i = 0; i < 256; i++) {
            assertEquals(i / 255f, divided.get(i), 0f, "bit-exact x / 255f at " + i);
        }
        assertEquals(0f, pixels.get(0) + 0f, "the input is not modified");
        assertEquals(255f, pixels.get(255));
    }

    @Test
    void inPlaceGivesTheBitsOfApplyAndTouchesOnlyTheView() {
        SplittableRandom r = new SplittableRandom(9);
        float[] values = new float[2 + 4 * 3 + 2];
        for (int i = 0; i < values.length; i++) {
            values[i] = r.nextInt(256) + (float) r.nextDouble();
        }
        Normalization norm = Normalization.of(new float[] {10, 100, 200}, new float[] {3, 900, 7});
        for (ElementwiseTransform t : List.of(Rescaling.divideBy(255f), new Rescaling(1 / 127.5f, -1), norm)) {
            float[] data = values.clone();
            Tensor view = Tensor.wrap(data, 2, Shape.of(4, 3)); // two floats of something else on each side
            float[] expected = t.apply(view).toArray();
            t.applyInPlace(view);
            assertArrayEquals(expected, view.toArray(), 0f, t + " in place");
            assertEquals(values[0], data[0]);
            assertEquals(values[1], data[1]);
            assertEquals(values[values.length - 2], data[values.length - 2]);
            assertEquals(values[values.length - 1], data[values.length - 1]);
        }
    }

    @Test
    void normalizationAdaptsPerFeatureAndStandardizes() {
        SplittableRandom r = new SplittableRandom(4);
        float[] x = new float[500 * 2];
        for (int i = 0; i < 500; i++) {
            x[2 * i] = (float) (1000 + 3 * r.nextGaussian());
            x[2 * i + 1] = (float) (-2 + 0.5 * r.nextGaussian());
        }
        Tensor all = Tensor.of(x, 500, 2);
        double[] mean = new double[2];
        double[] var = new double[2];
        for (int j = 0; j < 2; j++) {
            for (int i = 0; i < 500; i++) {
                mean[j] += x[2 * i + j] / 500.0;
            }
            for (int i = 0; i < 500; i++) {
                var[j] += Math.pow(x[2 * i + j] - mean[j], 2) / 500.0;
            }
        }
        Normalization bySample = Normalization.adapt(Pipeline.fromTensor(all));
        Normalization byBatch = Normalization.adapt(Pipeline.fromTensor(all).batch(64).map(Batch::features));
        for (Normalization n : List.of(bySample, byBatch)) {
            for (int j = 0; j < 2; j++) {
                assertEquals(mean[j], n.mean()[j], 1e-3 * Math.abs(mean[j]));
                assertEquals(var[j], n.variance()[j], 1e-4 * var[j]);
            }
        }
        Tensor z = bySample.apply(all);
        double m0 = 0;
        double s0 = 0;
        for (int i = 0; i < 500; i++) {
            m0 += z.get(2 * i) / 500.0;
            s0 += z.get(2 * i) * z.get(2 * i) / 500.0;
        }
        assertEquals(0, m0, 1e-3);
        assertEquals(1, s0, 1e-3);
        assertEquals("normalization adapted to 2 features cannot normalize a tensor of shape (3,) (its last axis "
                + "must have 2)", assertThrows(IllegalArgumentException.class,
                () -> bySample.apply(Tensor.zeros(3))).getMessage());
        assertArrayEquals(new float[] {1e7f}, Normalization.of(new float[] {0}, new float[] {0})
                .apply(Tensor.of(new float[] {1}, 1)).toArray(), "zero variance divides by epsilon, as Keras");
    }

    @Test
    void oneHotForSampleAndBatchLabels() {
        OneHot oneHot = new OneHot(3);
        Tensor v = oneHot.apply(Tensor.scalar(2));
        assertEquals(Shape.of(3), v.shape());
        assertArrayEquals(new float[] {0, 0, 1}, v.toArray());
        Tensor m = oneHot.apply(Tensor.of(new float[] {1, 0}, 2));
        assertEquals(Shape.of(2, 3), m.shape());
        assertArrayEquals(new float[] {0, 1, 0, 1, 0, 0}, m.toArray());
        assertEquals("label 3 at index 1 is outside [0, 3)", assertThrows(IllegalArgumentException.class,
                () -> oneHot.apply(Tensor.of(new float[] {0, 3}, 2))).getMessage());
        assertEquals("label 0.5 at index 0 is not an integer class index", assertThrows(
                IllegalArgumentException.class, () -> oneHot.apply(Tensor.scalar(0.5f))).getMessage());
        Batch b = Pipeline.fromArrays(Tensor.zeros(4, 2), Tensor.of(new float[] {0, 1, 2, 1}, 4))
                .map(Sample.labels(oneHot)).batch(4).toList().get(0);
        assertEquals(Shape.of(4, 3), b.labels().shape());
    }

    @Test
    void randomFlipGivesEveryFlipAndNothingElse() {
        Tensor img = image();
        Set<List<Float>> seen = new HashSet<>();
        RandomFlip flip = new RandomFlip(RandomFlip.Mode.HORIZONTAL_AND_VERTICAL, 1);
        SplittableRandom r = new SplittableRandom(9);
        for (int i = 0; i < 200; i++) {
            float[] out = flip.apply(img, r.split()).toArray();
            seen.add(java.util.stream.IntStream.range(0, 6).mapToObj(k -> out[k]).toList());
        }
        assertEquals(Set.of(List.of(0f, 1f, 2f, 3f, 4f, 5f), List.of(2f, 1f, 0f, 5f, 4f, 3f),
                List.of(3f, 4f, 5f, 0f, 1f, 2f), List.of(5f, 4f, 3f, 2f, 1f, 0f)), seen);
        Set<List<Float>> horizontal = new HashSet<>();
        RandomFlip lr = new RandomFlip(RandomFlip.Mode.HORIZONTAL, 1);
        for (int i = 0; i < 50; i++) {
            float[] out = lr.apply(img, r.split()).toArray();
            horizontal.add(List.of(out[0], out[3]));
        }
        assertEquals(Set.of(List.of(0f, 3f), List.of(2f, 5f)), horizontal);
        assertEquals("RandomFlip takes images (height, width, channels) or batches of them, got shape (6,)",
                assertThrows(IllegalArgumentException.class, () -> lr.apply(Tensor.zeros(6), r)).getMessage());
    }

    @Test
    void randomCropTakesAWindowOfEachImage() {
        float[] v = new float[2 * 4 * 5];
        for (int i = 0; i < v.length; i++) {
            v[i] = i;
        }
        Tensor batch = Tensor.of(v, 2, 4, 5, 1);
        RandomCrop crop = new RandomCrop(2, 3, 5);
        Set<Float> corners = new HashSet<>();
        SplittableRandom r = new SplittableRandom(2);
        for (int t = 0; t < 100; t++) {
            Tensor c = crop.apply(batch, r.split());
            assertEquals(Shape.of(2, 2, 3, 1), c.shape());
            for (int n = 0; n < 2; n++) {
                float corner = c.at(n, 0, 0, 0);
                int top = (int) (corner - 20 * n) / 5;
                int left = (int) (corner - 20 * n) % 5;
                assertTrue(top <= 2 && left <= 2, "window inside image " + n);
                for (int y = 0; y < 2; y++) {
                    for (int x = 0; x < 3; x++) {
                        assertEquals(20 * n + (top + y) * 5 + left + x, c.at(n, y, x, 0));
                    }
                }
                corners.add(corner);
            }
        }
        assertEquals(18, corners.size(), "every one of the 3 x 3 places in both images");
        assertEquals("RandomCrop(5, 3) needs images at least 5x3 (height x width), got 4x5",
                assertThrows(IllegalArgumentException.class, () -> new RandomCrop(5, 3, 1).apply(batch, r))
                        .getMessage());
    }
}
