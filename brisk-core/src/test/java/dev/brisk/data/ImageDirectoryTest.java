package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Images written by javax.imageio's encoders into class folders, read back through the pipeline. */
class ImageDirectoryTest {
    @TempDir
    Path root;

    /** A 4x4 grey image whose pixel (y, x) is 16 * y + x + seed. */
    private static BufferedImage grey(int seed) {
        BufferedImage img = new BufferedImage(4, 4, BufferedImage.TYPE_BYTE_GRAY);
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                img.getRaster().setSample(x, y, 0, 16 * y + x + seed);
            }
        }
        return img;
    }

    /** A 4x4 colour image of one colour. */
    private static BufferedImage colour(int rgb) {
        BufferedImage img = new BufferedImage(4, 4, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                img.setRGB(x, y, rgb);
            }
        }
        return img;
    }

    private Path write(String relative, BufferedImage img, String format) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        assertTrue(ImageIO.write(img, format, p.toFile()), format);
        return p;
    }

    @BeforeEach
    void classes() throws IOException {
        write("cat/a.png", grey(0), "png");
        write("cat/b.png", grey(100), "png");
        write("dog/c.png", colour(0x102030), "png");
        write("dog/deep/d.jpg", colour(0x808080), "jpg");
        Files.writeString(root.resolve("dog/notes.txt"), "not an image");
        Files.writeString(root.resolve("loose.png"), "outside the class folders");
    }

    @Test
    void classesAreSortedFolderNamesAndLabelsTheirIndex() throws IOException {
        ImageDirectory dir = ImageDirectory.of(root);
        assertEquals(List.of("cat", "dog"), dir.classNames());
        assertEquals(4, dir.size());
        List<Batch> batches = dir.pipeline().batch(4).toList();
        assertEquals(1, batches.size());
        Batch b = batches.get(0);
        assertEquals(Shape.of(4, 4, 4, 3), b.features().shape());
        assertArrayEquals(new float[] {0, 0, 1, 1}, b.labels().toArray());
    }

    @Test
    void greyPixelsAreReadExactly() throws IOException {
        ImageDirectory dir = ImageDirectory.of(root).colorMode(ImageDirectory.ColorMode.GRAYSCALE);
        Sample b = dir.pipeline().toList().get(1);
        assertEquals(Shape.of(4, 4, 1), b.features().shape());
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                assertEquals(16 * y + x + 100, b.features().at(y, x, 0), "pixel " + y + "," + x);
            }
        }
        // Colour images become luma; grey ones in RGB repeat the grey.
        Sample c = dir.pipeline().toList().get(2);
        assertEquals(0.299f * 0x10 + 0.587f * 0x20 + 0.114f * 0x30, c.features().at(0, 0, 0), 1e-4);
        Sample a = ImageDirectory.of(root).pipeline().toList().get(0);
        // pixel 5 is (y 1, x 1): 16 + 1
        assertArrayEquals(new float[] {17, 17, 17}, Arrays.copyOfRange(a.features().toArray(), 15, 18));
    }

    @Test
    void colourPixelsAndJpegs() throws IOException {
        List<Sample> samples = ImageDirectory.of(root).colorMode(ImageDirectory.ColorMode.RGBA).pipeline().toList();
        assertArrayEquals(new float[] {0x10, 0x20, 0x30, 255}, Arrays.copyOfRange(samples.get(2).features()
                .toArray(), 0, 4));
        float[] jpeg = samples.get(3).features().toArray();
        for (int i = 0; i < jpeg.length; i++) {
            assertEquals(i % 4 == 3 ? 255 : 128, jpeg[i], 2, "JPEG is lossy, but not by much on a flat image");
        }
    }

    @Test
    void resizingIsBilinearWithHalfPixelCentres() throws IOException {
        ImageDirectory dir = ImageDirectory.of(root).colorMode(ImageDirectory.ColorMode.GRAYSCALE).imageSize(2, 2);
        Tensor a = dir.pipeline().toList().get(0).features();
        assertEquals(Shape.of(2, 2, 1), a.shape());
        // Halving averages each 2x2 block: (0 + 1 + 16 + 17) / 4 = 8.5, and so on.
        assertArrayEquals(new float[] {8.5f, 10.5f, 40.5f, 42.5f}, a.toArray());
        Tensor up = ImageDecoder.resize(Tensor.of(new float[] {0, 10}, 1, 2, 1), 1, 4);
        assertArrayEquals(new float[] {0, 2.5f, 7.5f, 10}, up.toArray());
    }

    @Test
    void anUnreadableImageIsABadRecordNamingTheFile() throws IOException {
        Path bad = root.resolve("cat/broken.png");
        Files.writeString(bad, "this is not a PNG");
        ImageDirectory dir = ImageDirectory.of(root);
        BadRecordException e = assertThrows(BadRecordException.class, () -> dir.pipeline().toList());
        assertEquals(bad + ": not a PNG or JPEG image (no decoder recognises it)", e.getMessage());
        assertEquals(bad, e.file());
        BadRecords skipped = new BadRecords();
        assertEquals(4, dir.pipeline().ignoreErrors(skipped).toList().size());
        assertEquals(1, skipped.count());
    }

    /** A 64x64 image of noise, so that a cut lands in the compressed pixels rather than in the header. */
    private static BufferedImage noise() {
        BufferedImage img = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        for (int y = 0; y < 64; y++) {
            for (int x = 0; x < 64; x++) {
                img.setRGB(x, y, r.nextInt(1 << 24));
            }
        }
        return img;
    }

    @Test
    void aTruncatedImageIsRefusedNotFilledIn() throws IOException {
        for (String format : List.of("jpg", "png")) {
            Path whole = write("whole." + format, noise(), format);
            byte[] bytes = Files.readAllBytes(whole);
            Files.write(root.resolve("dog/cut." + format), Arrays.copyOf(bytes, bytes.length * 2 / 3));
            Files.delete(whole);
        }
        BadRecords skipped = new BadRecords();
        List<Sample> ok = ImageDirectory.of(root).imageSize(4, 4).pipeline().ignoreErrors(skipped).toList();
        assertEquals(4, ok.size());
        assertEquals(2, skipped.count(), skipped.messages().toString());
        // The JPEG decoder would fill the missing part with grey and only warn; the warning makes it an error.
        assertTrue(skipped.messages().get(0).startsWith(root.resolve("dog/cut.jpg") + ": the image is damaged ("),
                skipped.messages().get(0));
        assertTrue(skipped.messages().get(1).startsWith(root.resolve("dog/cut.png") + ": cannot decode the image"),
                skipped.messages().get(1));
    }

    @Test
    void anImageOfAnotherSizeIsNamedUnlessResized() throws IOException {
        BufferedImage wide = new BufferedImage(6, 4, BufferedImage.TYPE_BYTE_GRAY);
        Path odd = write("dog/wide.png", wide, "png");
        ImageDirectory dir = ImageDirectory.of(root);
        BadRecordException e = assertThrows(BadRecordException.class, () -> dir.pipeline().toList());
        assertEquals(odd + ": the image is 4x6 (height x width) but the first image (a.png) is 4x4; set "
                + "imageSize(height, width) to resize them all", e.getMessage());
        assertEquals(5, dir.imageSize(4, 4).pipeline().toList().size());
    }

    @Test
    void aDirectoryWithoutClassFoldersIsRefused() throws IOException {
        Path flat = Files.createDirectories(root.resolve("cat/a.png").getParent().resolveSibling("empty"));
        DataFormatException e = assertThrows(DataFormatException.class, () -> ImageDirectory.of(flat));
        assertEquals(flat + ": no class sub-folders (expected one folder of images per class)", e.getMessage());
    }
}
