package dev.brisk.data.preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brisk.data.NpyReader;
import dev.brisk.data.Pipeline;
import dev.brisk.data.RandomTransform;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Resizing and Keras' geometric and contrast augmentations against hand-computed values and PyTorch fixtures. */
class ImageAugmentationTest {

    /** A (h, w, c) image whose values are its flat index times 1.5 plus 1, so every pixel differs. */
    private static Tensor ramp(int h, int w, int c) {
        float[] v = new float[h * w * c];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 1.5f + 1;
        }
        return Tensor.of(v, h, w, c);
    }

    @Test
    void resizingBilinearUsesHalfPixelCentresClampedAtTheEdges() {
        // Up 2 -> 4: sources -0.25 (clamped to pixel 0), 0.25, 0.75, 1.25 (clamped to pixel 1).
        Tensor up = new Resizing(1, 4).apply(Tensor.of(new float[] {0, 10}, 1, 2, 1));
        assertEquals(Shape.of(1, 4, 1), up.shape());
        assertArrayEquals(new float[] {0, 2.5f, 7.5f, 10}, up.toArray());
        // Down 4 -> 2: sources 0.5 and 2.5, the means of neighbours.
        assertArrayEquals(new float[] {1, 5}, new Resizing(1, 2).apply(Tensor.of(new float[] {0, 2, 4, 6}, 1, 4, 1))
                .toArray());
        // Nearest 4 -> 3: floor((o + 0.5) * 4 / 3) = 0, 2, 3.
        assertArrayEquals(new float[] {0, 2, 3}, new Resizing(1, 3, Interpolation.NEAREST)
                .apply(Tensor.of(new float[] {0, 1, 2, 3}, 1, 4, 1)).toArray());
    }

    @Test
    void resizingMatchesPyTorchInterpolate() throws Exception {
        float[] v = new float[5 * 7 * 3];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (Math.sin(i) * 10 + 20);
        }
        Tensor image = Tensor.of(v, 5, 7, 3);
        Tensor batch = Tensor.of(concat(v, v), 2, 5, 7, 3);
        for (Interpolation mode : Interpolation.values()) {
            for (int[] size : new int[][] {{3, 4}, {8, 11}, {5, 3}}) {
                String name = mode.name().toLowerCase() + "_" + size[0] + "x" + size[1] + ".npy";
                Tensor expected = NpyReader.read(Path.of(getClass().getResource("/resize/" + name).toURI()));
                Resizing resize = new Resizing(size[0], size[1], mode);
                Tensor got = resize.apply(image);
                assertEquals(expected.shape(), got.shape(), name);
                assertArrayEquals(expected.toArray(), got.toArray(), 1e-5f, name);
                float[] both = resize.apply(batch).toArray();
                assertArrayEquals(concat(expected.toArray(), expected.toArray()), both, 1e-5f, name + " batched");
            }
        }
    }

    @Test
    void aQuarterTurnIsExactlyATransposeAndFlip() {
        int n = 5;
        Tensor img = ramp(n, n, 2);
        for (Interpolation mode : Interpolation.values()) {
            for (FillMode fill : FillMode.values()) {
                RandomRotation rotation = new RandomRotation(-0.25, 0.25, fill, -9f, mode, 3);
                Tensor quarter = rotation.rotate(img, Math.PI / 2);
                Tensor half = rotation.rotate(img, Math.PI);
                for (int y = 0; y < n; y++) {
                    for (int x = 0; x < n; x++) {
                        for (int c = 0; c < 2; c++) {
                            // Counter-clockwise: the right column becomes the top row.
                            assertEquals(img.at(x, n - 1 - y, c), quarter.at(y, x, c), mode + " " + fill);
                            assertEquals(img.at(n - 1 - y, n - 1 - x, c), half.at(y, x, c), mode + " " + fill);
                        }
                    }
                }
            }
        }
    }

    @Test
    void zeroZoomAndZeroTranslationAreTheIdentity() {
        Tensor img = ramp(4, 6, 3);
        SplittableRandom r = new SplittableRandom(4);
        assertArrayEquals(img.toArray(), new RandomZoom(0, 1).apply(img, r).toArray());
        assertArrayEquals(img.toArray(), new RandomTranslation(0, 0, 1).apply(img, r).toArray());
        assertArrayEquals(img.toArray(), new RandomRotation(0, 1).apply(img, r).toArray());
    }

    @Test
    void translationReflectsAboutTheEdgeOrFillsAConstant() {
        Tensor row = Tensor.of(new float[] {1, 2, 3, 4}, 1, 4, 1);
        RandomTranslation reflect = new RandomTranslation(0, 0.5, 1);
        // (d c b a | a b c d | d c b a): moved 2 right, the left edge shows b a.
        assertArrayEquals(new float[] {2, 1, 1, 2}, reflect.translate(row, 0, 2).toArray());
        assertArrayEquals(new float[] {3, 4, 4, 3}, reflect.translate(row, 0, -2).toArray());
        RandomTranslation constant = new RandomTranslation(new double[] {0, 0}, new double[] {-1, 1},
                FillMode.CONSTANT, 7f, Interpolation.BILINEAR, 1);
        assertArrayEquals(new float[] {7, 1, 2, 3}, constant.translate(row, 0, 1).toArray());
        // Half a pixel blends with the fill value at the border.
        assertArrayEquals(new float[] {4, 1.5f, 2.5f, 3.5f}, constant.translate(row, 0, 0.5).toArray());
    }

    @Test
    void zoomScalesAboutTheCentre() {
        Tensor row = Tensor.of(new float[] {0, 10, 20, 30, 40}, 1, 5, 1);
        RandomZoom zoom = new RandomZoom(0.5, 1);
        // Width zoom 0.5 (zoom in): x reads 2 + 0.5 (x - 2).
        assertArrayEquals(new float[] {10, 15, 20, 25, 30}, zoom.zoom(row, 1, 0.5).toArray());
        // Width zoom 2 (zoom out): x reads 2 + 2 (x - 2) = -2, 0, 2, 4, 6; reflect gives 1, 0, 2, 4, 3.
        assertArrayEquals(new float[] {10, 0, 20, 40, 30}, zoom.zoom(row, 1, 2).toArray());
    }

    @Test
    void contrastFollowsKerasFormulaPerImageAndChannel() {
        // Two channels: means 2 and 20.
        Tensor img = Tensor.of(new float[] {1, 10, 3, 30}, 1, 2, 2);
        RandomContrast contrast = new RandomContrast(0.5, 9);
        // (x - mean) * k + mean, clipped to [0, 255].
        assertArrayEquals(new float[] {0.5f, 5, 3.5f, 35}, contrast.adjust(img, 1.5f).toArray());
        Tensor batch = Tensor.of(new float[] {1, 10, 3, 30, 100, 250, 200, 254}, 2, 1, 2, 2);
        assertArrayEquals(new float[] {2, 20, 2, 20, 50, 248, 250, 255},
                contrast.adjust(batch, 0, 2).toArray());
        // Draws stay in [1 - 0.5, 1 + 0.5]: around a mean of 2, pixel 1 lands in [0.5, 1.5].
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 100; i++) {
            float v = contrast.apply(img, r).at(0, 0, 0);
            assertEquals(1, v, 0.5f + 1e-6f);
        }
    }

    @Test
    void seededAugmentationsRepeatWhateverTheThreadCountAndDifferBySeed() {
        List<Tensor> images = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            images.add(ramp(6, 5, 2));
        }
        List<RandomTransform<Tensor, Tensor>> augmentations = List.of(new RandomRotation(0.2, 11),
                new RandomZoom(0.3, 11), new RandomTranslation(0.2, 0.3, 11), new RandomContrast(0.4, 11));
        for (RandomTransform<Tensor, Tensor> aug : augmentations) {
            List<Tensor> one = Pipeline.fromList(images).map(aug, 1).toList();
            List<Tensor> four = Pipeline.fromList(images).map(aug, 4).toList();
            for (int i = 0; i < images.size(); i++) {
                assertArrayEquals(one.get(i).toArray(), four.get(i).toArray(), aug + " element " + i);
            }
            assertFalse(java.util.Arrays.equals(one.get(0).toArray(), one.get(1).toArray()),
                    aug + " draws differently per element");
            Tensor again = aug.apply(images.get(0), RandomTransform.generator(11, 0, 0));
            assertArrayEquals(again.toArray(), aug.apply(images.get(0), RandomTransform.generator(11, 0, 0))
                    .toArray());
        }
        Tensor a = new RandomRotation(0.2, 1).apply(images.get(0), RandomTransform.generator(1, 0, 0));
        Tensor b = new RandomRotation(0.2, 2).apply(images.get(0), RandomTransform.generator(2, 0, 0));
        assertFalse(java.util.Arrays.equals(a.toArray(), b.toArray()), "another seed, another rotation");
    }

    @Test
    void theDocumentedChainRunsOnSamplesAndLeavesLabelsAlone() {
        List<dev.brisk.data.Sample> samples = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            samples.add(new dev.brisk.data.Sample(ramp(8, 6, 3), Tensor.scalar(i)));
        }
        List<dev.brisk.data.Sample> out = Pipeline.fromList(samples)
                .map(dev.brisk.data.Sample.features(new Resizing(5, 5)))
                .map(dev.brisk.data.Sample.features(new RandomRotation(0.1, 7)))
                .map(dev.brisk.data.Sample.features(new RandomZoom(0.2, 8)))
                .map(dev.brisk.data.Sample.features(new RandomContrast(0.2, 9)))
                .toList();
        for (int i = 0; i < 4; i++) {
            assertEquals(Shape.of(5, 5, 3), out.get(i).features().shape());
            assertEquals(i, out.get(i).label().toArray()[0]);
        }
    }

    @Test
    void unsupportedOptionsAreRefusedByName() {
        assertEquals("RandomRotation: fill_mode \"wrap\" is not supported (Brisk has \"reflect\" and \"constant\")",
                assertThrows(IllegalArgumentException.class, () -> FillMode.of("wrap", "RandomRotation"))
                        .getMessage());
        assertEquals(FillMode.REFLECT, FillMode.of("reflect", "RandomZoom"));
        assertEquals("Resizing: interpolation \"bicubic\" is not supported (Brisk has \"bilinear\" and \"nearest\")",
                assertThrows(IllegalArgumentException.class, () -> Interpolation.of("bicubic", "Resizing"))
                        .getMessage());
        assertEquals("RandomZoom: height_factor must be a range [lower, upper] with -1.0 <= lower <= upper <= 1.0, "
                + "got [-1.5, 1.5]", assertThrows(IllegalArgumentException.class, () -> new RandomZoom(1.5, 0))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RandomContrast(1.5, 0));
        assertEquals("Resizing takes images (height, width, channels) or batches of them, got shape (6,)",
                assertThrows(IllegalArgumentException.class, () -> new Resizing(2, 2).apply(Tensor.zeros(6)))
                        .getMessage());
    }

    private static float[] concat(float[] a, float[] b) {
        float[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
