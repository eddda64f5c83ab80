package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.preprocessing.Rescaling;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images loaded from a file of unsigned bytes stay bytes ({@link BytePixels}); every batch, view and the float
 * tensor must have the bits the same images decoded up front to floats have.
 */
class BytePixelsTest {
    @TempDir
    Path dir;

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    /** 300 random 28x28 images (every byte value occurs) with labels 0-9, as two IDX files; loaded as bytes. */
    private InMemoryDataset load(float divisor) throws IOException {
        Random r = new Random(7);
        int n = 300;
        byte[] pixels = new byte[n * 28 * 28];
        r.nextBytes(pixels);
        byte[] labels = new byte[n];
        for (int i = 0; i < n; i++) {
            labels[i] = (byte) r.nextInt(10);
        }
        Path images = dir.resolve("images-" + divisor);
        Path labelFile = dir.resolve("labels-" + divisor);
        Files.write(images, IdxBytes.ubyte(new int[] {n, 28, 28}, pixels));
        Files.write(labelFile, IdxBytes.ubyte(new int[] {n}, labels));
        return IdxDatasets.load(images, labelFile, divisor);
    }

    /** The same samples with the features decoded up front: what loading gave before bytes were kept. */
    private static InMemoryDataset asFloats(InMemoryDataset bytes) {
        return new InMemoryDataset(bytes.features(), bytes.labels());
    }

    private static List<float[]> epoch(InMemoryDataset ds, int batchSize, boolean shuffle) {
        List<float[]> out = new ArrayList<>();
        for (Batch b : ds.batches(batchSize, shuffle, 42)) {
            out.add(b.features().toArray());
            out.add(b.labels().toArray());
            assertEquals(b.size(), b.features().shape().dim(0));
        }
        return out;
    }

    private static void assertSameEpochs(List<float[]> expected, List<float[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "array " + i);
        }
    }

    @Test
    void featuresMatchTheFloatDecodeBitForBit() throws IOException {
        for (float divisor : new float[] {255f, 1f, 3f}) {
            InMemoryDataset ds = load(divisor);
            IdxArray decoded = IdxReader.read(dir.resolve("images-" + divisor), divisor);
            assertArrayEquals(decoded.values(), ds.features().toArray(), "divisor " + divisor);
            assertEquals(Shape.of(300, 28, 28), ds.features().shape());
            assertSame(ds.features(), ds.features(), "the float tensor is made once");
        }
    }

    @Test
    void batchesMatchTheFloatDatasetInOrderAndShuffled() throws IOException {
        InMemoryDataset bytes = load(255f);
        InMemoryDataset floats = asFloats(bytes);
        for (int batchSize : new int[] {1, 7, 128, 300, 1000}) {
            for (boolean shuffle : new boolean[] {false, true}) {
                assertSameEpochs(epoch(floats, batchSize, shuffle), epoch(bytes, batchSize, shuffle));
            }
        }
    }

    @Test
    void largeBatchesGatheredOnTwoThreadsMatch() throws IOException {
        ThreadBudget.set(2); // 64 rows of 784 floats are gathered on the compute pool
        InMemoryDataset bytes = load(255f).flatten();
        assertSameEpochs(epoch(asFloats(bytes), 64, true), epoch(bytes, 64, true));
    }

    @Test
    void slicesAndReshapesMatch() throws IOException {
        InMemoryDataset bytes = load(255f);
        InMemoryDataset floats = asFloats(bytes);
        InMemoryDataset[][] pairs = {
            {floats.slice(17, 203), bytes.slice(17, 203)},
            {floats.take(5), bytes.take(5)},
            {floats.flatten(), bytes.flatten()},
            {floats.reshapeFeatures(Shape.of(28, 28, 1)).slice(250, 300),
                bytes.reshapeFeatures(Shape.of(28, 28, 1)).slice(250, 300)},
            {floats.slice(3, 3), bytes.slice(3, 3)},
        };
        for (InMemoryDataset[] pair : pairs) {
            assertEquals(pair[0].size(), pair[1].size());
            assertEquals(pair[0].featureShape(), pair[1].featureShape());
            assertArrayEquals(pair[0].features().toArray(), pair[1].features().toArray());
            assertSameEpochs(epoch(pair[0], 32, true), epoch(pair[1], 32, true));
            assertSameEpochs(epoch(pair[0], 32, false), epoch(pair[1], 32, false));
        }
    }

    /** Gathering rows of bytes allocates no more per batch than gathering rows of floats (after warm-up). */
    @Test
    void gatheringBytesAllocatesNoMoreThanFloats() throws IOException {
        ThreadBudget.set(1);
        InMemoryDataset bytes = load(255f).flatten();
        InMemoryDataset floats = asFloats(bytes);
        long fromFloats = bestBytesPerEpoch(floats);
        long fromBytes = bestBytesPerEpoch(bytes);
        assertTrue(fromBytes <= fromFloats, "an epoch of byte rows allocated " + fromBytes + " bytes, of float rows "
                + fromFloats);
    }

    private static long bestBytesPerEpoch(InMemoryDataset ds) {
        com.sun.management.ThreadMXBean bean =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long best = Long.MAX_VALUE;
        float sink = 0;
        for (int round = 0; round < 30; round++) {
            long before = bean.getThreadAllocatedBytes(tid);
            for (Batch b : ds.batches(32, true, round)) {
                sink += b.features().data()[0];
            }
            best = Math.min(best, bean.getThreadAllocatedBytes(tid) - before);
        }
        assertTrue(sink >= 0);
        return best;
    }

    @Test
    void dividingRawBytesGivesAViewWithTheBitsOfRescaling() throws IOException {
        InMemoryDataset raw = load(1f);
        Tensor expected = Rescaling.divideBy(255f).apply(raw.features());
        InMemoryDataset view = load(1f).dividedBy(255f);
        assertTrue(view.pixels() != null, "still bytes");
        assertSameEpochs(epoch(new InMemoryDataset(expected, raw.labels()), 32, true), epoch(view, 32, true));
        assertFalse(view.pixels().hasFloatCopy(), "batches never made the float copy");
        assertArrayEquals(expected.toArray(), view.features().toArray());
        // Bytes already divided, and floats, are divided by copying: (b / 3) / 255 is not b / 765.
        InMemoryDataset thirds = load(3f);
        float[] thirdsDivided = thirds.dividedBy(255f).features().toArray();
        assertFalse(thirds.pixels().hasFloatCopy(), "the source keeps no float copy");
        assertArrayEquals(Rescaling.divideBy(255f).apply(thirds.features()).toArray(), thirdsDivided);
        assertArrayEquals(expected.toArray(), asFloats(raw).dividedBy(255f).features().toArray());
        assertThrows(IllegalArgumentException.class, () -> raw.dividedBy(0f));
    }

    @Test
    void labelsAreCheckedAsBefore() throws IOException {
        InMemoryDataset bytes = load(255f);
        assertEquals(10, bytes.numClasses());
        bytes.checkClassLabels(10);
        Tensor labels = bytes.labels();
        assertEquals(Shape.of(300), labels.shape());
    }
}
