package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Pipeline#from(InMemoryDataset)} over images kept as bytes decodes each sample as it is made: the batches
 * must have the bits of the same images decoded up front, and the dataset's whole float copy must never be made.
 */
class BytePipelineTest {
    private static final int N = 300;

    @TempDir
    Path dir;

    /** The byte dataset loaded from IDX files, and the float dataset read from the same files by the float decode. */
    private InMemoryDataset[] load() throws IOException {
        Random r = new Random(11);
        byte[] pixels = new byte[N * 28 * 28];
        r.nextBytes(pixels);
        byte[] labels = new byte[N];
        for (int i = 0; i < N; i++) {
            labels[i] = (byte) r.nextInt(10);
        }
        Path images = dir.resolve("images");
        Path labelFile = dir.resolve("labels");
        Files.write(images, IdxBytes.ubyte(new int[] {N, 28, 28}, pixels));
        Files.write(labelFile, IdxBytes.ubyte(new int[] {N}, labels));
        InMemoryDataset bytes = IdxDatasets.load(images, labelFile, 255f);
        assertNotNull(bytes.pixels(), "the loader keeps unsigned-byte images as bytes");
        InMemoryDataset floats = new InMemoryDataset(IdxReader.read(images, 255f).toTensor(),
                IdxReader.read(labelFile).toTensor());
        return new InMemoryDataset[] {bytes, floats};
    }

    /** Two passes (epochs) of {@code recipe} applied to a pipeline over {@code data}: every batch's arrays. */
    private static List<float[]> twoEpochs(InMemoryDataset data, UnaryOperator<Pipeline<Sample>> recipe) {
        return DeterminismTest.twoEpochs(recipe.apply(Pipeline.from(data)).batch(32));
    }

    private static void assertSameBits(List<float[]> expected, List<float[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), what + ", array " + i);
        }
    }

    @Test
    void batchesMatchTheFloatDatasetInOrderAndShuffled() throws IOException {
        InMemoryDataset[] d = load();
        InMemoryDataset bytes = d[0];
        InMemoryDataset floats = d[1];
        List<UnaryOperator<Pipeline<Sample>>> recipes = List.of(
                p -> p,
                p -> p.shuffle(N, 5),
                p -> p.shuffle(10 * N, 5),
                p -> p.shuffle(37, 5),
                p -> p.shuffle(N, 5).repeat(2),
                p -> p.repeat(2).shuffle(2 * N, 5),
                p -> p.prefetch(3).shuffle(N, 5));
        String[] names = {"in order", "full buffer", "larger buffer", "small buffer", "full buffer, repeat",
            "repeat, then full buffer", "prefetch, then full buffer"};
        for (int i = 0; i < recipes.size(); i++) {
            assertSameBits(twoEpochs(floats, recipes.get(i)), twoEpochs(bytes, recipes.get(i)), names[i]);
        }
        assertSameBits(twoEpochs(floats.reshapeFeatures(Shape.of(784)).slice(20, 250), p -> p.shuffle(N, 9)),
                twoEpochs(bytes.reshapeFeatures(Shape.of(784)).slice(20, 250), p -> p.shuffle(N, 9)), "a view");
        assertFalse(bytes.pixels().hasFloatCopy(), "a pipeline made the dataset's whole float copy");
    }

    @Test
    void eachSampleIsAFreshTensorOfTheRowShape() throws IOException {
        InMemoryDataset bytes = load()[0].reshapeFeatures(Shape.of(28, 28, 1));
        List<Sample> samples = Pipeline.from(bytes).take(2).toList();
        Tensor first = samples.get(0).features();
        assertEquals(Shape.of(28, 28, 1), first.shape());
        assertNotSame(first.data(), samples.get(1).features().data());
        assertNotSame(first.data(), Pipeline.from(bytes).take(1).toList().get(0).features().data());
        assertEquals(0, first.offset());
        assertFalse(bytes.pixels().hasFloatCopy());
        // The float copy is still made for a caller who asks for it, with the rows' bits.
        assertArrayEquals(bytes.features().slice(0, 1).reshape(Shape.of(28, 28, 1)).toArray(), first.toArray());
    }
}
