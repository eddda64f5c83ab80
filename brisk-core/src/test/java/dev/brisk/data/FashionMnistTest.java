package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.tensor.Shape;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {
    private static final String[] NAMES = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
        "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};

    @TempDir
    Path tmp;

    private static Path fixture() {
        try {
            return Path.of(FashionMnistTest.class.getResource("/fashion-mnist-mini").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] gunzip(Path p) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
            return in.readAllBytes();
        }
    }

    @Test
    void loadsTheFixture() throws IOException {
        TrainTestSplit split = FashionMnist.load(fixture());
        for (InMemoryDataset ds : new InMemoryDataset[] {split.train(), split.test()}) {
            assertEquals(1000, ds.size());
            assertEquals(Shape.of(28, 28, 1), ds.featureShape());
            assertEquals(Shape.scalar(), ds.labelShape());
            assertEquals(10, ds.numClasses());
            for (float v : ds.features().toArray()) {
                assertTrue(v >= 0f && v <= 1f, "pixel " + v);
            }
        }
        assertArrayEquals(new float[] {9, 0, 0, 3, 0, 2, 7, 2, 5, 5},
                Arrays.copyOf(split.train().labels().toArray(), 10));
        assertEquals(Shape.of(784), split.train().flatten().featureShape());
        assertEquals("Ankle boot", FashionMnist.CLASS_NAMES.get(9));
        assertEquals(FashionMnist.NUM_CLASSES, FashionMnist.CLASS_NAMES.size());
    }

    @Test
    void firstImageMatchesRawBytesOver255() throws IOException {
        byte[] raw = gunzip(fixture().resolve("train-images-idx3-ubyte.gz"));
        float[] first = FashionMnist.load(fixture()).train().features().slice(0, 1).toArray();
        assertEquals(784, first.length);
        int nonZero = 0;
        for (int i = 0; i < 784; i++) {
            int pixel = raw[16 + i] & 0xFF;
            assertEquals(pixel / 255f, first[i], 0f, "pixel " + i);
            nonZero += pixel != 0 ? 1 : 0;
        }
        assertTrue(nonZero > 100, "the first image is not blank");
    }

    @Test
    void rawAndGzipFilesLoadIdentically() throws IOException {
        for (String name : NAMES) {
            Files.write(tmp.resolve(name), gunzip(fixture().resolve(name + ".gz")));
        }
        TrainTestSplit raw = FashionMnist.load(tmp);
        TrainTestSplit gz = FashionMnist.load(fixture());
        assertArrayEquals(gz.train().features().toArray(), raw.train().features().toArray());
        assertArrayEquals(gz.test().labels().toArray(), raw.test().labels().toArray());
    }

    @Test
    void missingDirectoryNamesItAndTheFix() {
        Path missing = tmp.resolve("nowhere");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> FashionMnist.load(missing));
        assertEquals(missing + ": Fashion-MNIST directory not found; install the Debian package "
                + "dataset-fashion-mnist or pass --data DIR", e.getMessage());
    }

    @Test
    void missingFileNamesIt() throws IOException {
        for (String name : NAMES) {
            if (!name.startsWith("t10k-labels")) {
                Files.copy(fixture().resolve(name + ".gz"), tmp.resolve(name + ".gz"));
            }
        }
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> FashionMnist.load(tmp));
        assertEquals(tmp.resolve("t10k-labels-idx1-ubyte.gz") + ": Fashion-MNIST file not found (nor "
                + "t10k-labels-idx1-ubyte); install the Debian package dataset-fashion-mnist or pass --data DIR",
                e.getMessage());
    }

    @Test
    void imageAndLabelCountMismatchNamesBothFiles() throws IOException {
        for (String name : NAMES) {
            Files.copy(fixture().resolve(name + ".gz"), tmp.resolve(name + ".gz"));
        }
        Path labels = tmp.resolve("train-labels-idx1-ubyte.gz");
        Files.write(labels, IdxBytes.gzip(IdxBytes.ubyte(new int[] {999}, new byte[999])));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> FashionMnist.load(tmp));
        assertEquals("1000 images but 999 labels in " + tmp.resolve("train-images-idx3-ubyte.gz")
                + " (1000, 28, 28) and " + labels + " (999,)", e.getMessage());
        assertEquals(labels, e.file());
    }

    @Test
    void outOfRangeLabelNamesFileAndIndex() throws IOException {
        for (String name : NAMES) {
            Files.copy(fixture().resolve(name + ".gz"), tmp.resolve(name + ".gz"));
        }
        byte[] labels = new byte[1000];
        labels[5] = 10;
        Path file = tmp.resolve("t10k-labels-idx1-ubyte.gz");
        Files.write(file, IdxBytes.gzip(IdxBytes.ubyte(new int[] {1000}, labels)));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> FashionMnist.load(tmp));
        assertEquals(file + ": label 10 at index 5 is outside [0, 10)", e.getMessage());
    }

    @Test
    void wrongImageSizeIsRejected() throws IOException {
        for (String name : NAMES) {
            Files.copy(fixture().resolve(name + ".gz"), tmp.resolve(name + ".gz"));
        }
        Path images = tmp.resolve("train-images-idx3-ubyte.gz");
        Files.write(images, IdxBytes.gzip(IdxBytes.ubyte(new int[] {1000, 2, 2}, new byte[4000])));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> FashionMnist.load(tmp));
        assertEquals(images + ": images have shape (2, 2) but Fashion-MNIST images are (28, 28)", e.getMessage());
    }

    @Test
    void fullInstalledDatasetHas6000TrainingImagesPerClass() throws IOException {
        assumeTrue(Files.isDirectory(FashionMnist.DEFAULT_DIR), FashionMnist.DEFAULT_DIR + " is not installed");
        TrainTestSplit split = FashionMnist.load();
        assertEquals(60000, split.train().size());
        assertEquals(10000, split.test().size());
        int[] histogram = new int[10];
        for (float label : split.train().labels().toArray()) {
            histogram[(int) label]++;
        }
        int[] expected = new int[10];
        Arrays.fill(expected, 6000);
        assertArrayEquals(expected, histogram);
        // the fixture is the head of the real data
        assertArrayEquals(FashionMnist.load(fixture()).test().features().toArray(),
                split.test().take(1000).features().toArray());
    }
}
