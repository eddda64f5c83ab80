package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    /**
     * A PNG written byte by byte: the signature, an IHDR declaring {@code width} x {@code height} 8-bit grey pixels,
     * one IDAT of a few compressed bytes and an IEND, each chunk with its CRC. Tiny, whatever it declares.
     */
    private static byte[] pngDeclaring(int width, int height) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
        java.nio.ByteBuffer ihdr = java.nio.ByteBuffer.allocate(13).putInt(width).putInt(height)
                .put((byte) 8).put((byte) 0).put((byte) 0).put((byte) 0).put((byte) 0);
        chunk(out, "IHDR", ihdr.array());
        java.util.zip.Deflater deflater = new java.util.zip.Deflater();
        deflater.setInput(new byte[64]);
        deflater.finish();
        byte[] idat = new byte[256];
        int n = deflater.deflate(idat);
        chunk(out, "IDAT", Arrays.copyOf(idat, n));
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    private static void chunk(java.io.ByteArrayOutputStream out, String type, byte[] data) {
        byte[] typeBytes = type.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        out.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(typeBytes);
        out.writeBytes(data);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(typeBytes);
        crc.update(data);
        out.writeBytes(java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    /**
     * A small PNG that declares 30000 x 30000 pixels is a bad record naming the file, found from its header before
     * anything is decoded (it used to fail with a NegativeArraySizeException that ignoreErrors could not skip).
     */
    @Test
    void anImageDeclaringHugeDimensionsIsABadRecord() throws IOException {
        Path huge = root.resolve("cat/huge.png");
        Files.write(huge, pngDeclaring(30_000, 30_000));
        ImageDirectory dir = ImageDirectory.of(root);
        String expected = huge + ": the image declares 30000x30000 pixels (width x height), 900000000 in all, over the "
                + "limit of 134217728 (brisk.maxImagePixels, or ImageDirectory.maxPixels)";
        BadRecordException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(BadRecordException.class, () -> dir.pipeline().toList()));
        assertEquals(expected, e.getMessage());
        assertEquals(huge, e.file());
        BadRecords skipped = new BadRecords();
        assertEquals(4, dir.pipeline().ignoreErrors(skipped).toList().size());
        assertEquals(List.of(expected), skipped.messages());
        // The limit is the directory's own where set: 4x4 images pass a limit of 16 pixels, not one of 15.
        assertEquals(4, dir.maxPixels(16).pipeline().ignoreErrors().toList().size());
        BadRecords small = new BadRecords();
        assertEquals(0, dir.maxPixels(15).pipeline().ignoreErrors(small).toList().size());
        assertEquals(5, small.count());
    }

    /**
     * A held-out directory opened with the training directory's class names labels every class as training does,
     * even where it lacks a class; a folder outside the list is refused, as Keras refuses it.
     */
    @Test
    void aHeldOutDirectoryTakesTheTrainingClassNames() throws IOException {
        Path train = root.resolve("train");
        Path test = root.resolve("test");
        for (String c : List.of("A", "B", "C")) {
            write("train/" + c + "/x.png", grey(0), "png");
        }
        write("test/A/x.png", grey(0), "png");
        write("test/C/x.png", grey(0), "png");
        ImageDirectory trainDir = ImageDirectory.of(train);
        assertEquals(List.of("A", "B", "C"), trainDir.classNames());
        ImageDirectory heldOut = ImageDirectory.of(test, trainDir.classNames());
        assertEquals(List.of("A", "B", "C"), heldOut.classNames());
        assertArrayEquals(new float[] {0, 2}, heldOut.pipeline().batch(2).toList().get(0).labels().toArray());
        // Without the list, the held-out folder's own sorted classes would label C as 1.
        assertArrayEquals(new float[] {0, 1}, ImageDirectory.of(test).pipeline().batch(2).toList().get(0).labels()
                .toArray());
        // An explicit order is kept, as Keras' class_names orders the labels.
        ImageDirectory reordered = ImageDirectory.of(train, List.of("C", "A", "B"));
        assertArrayEquals(new float[] {0, 1, 2}, reordered.pipeline().batch(3).toList().get(0).labels().toArray());
        assertEquals(train.resolve("C/x.png"), reordered.files().toList().get(0).path());
        DataFormatException e = assertThrows(DataFormatException.class,
                () -> ImageDirectory.of(train, List.of("A", "C")));
        assertEquals(train + ": the sub-folders [B] are not in classNames [A, C]; every class folder must be one of "
                + "the classes given", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ImageDirectory.of(train, List.of("A", "A", "B", "C")));
    }

    /** Labels from two directories with different class lists cannot be mixed in one fit (issue: silent mislabels). */
    @Test
    void fitRefusesValidationImagesLabelledByAnotherClassList() throws IOException {
        for (String c : List.of("A", "B", "C")) {
            write("train/" + c + "/x.png", grey(0), "png");
        }
        write("test/A/x.png", grey(0), "png");
        write("test/C/x.png", grey(0), "png");
        ImageDirectory trainDir = ImageDirectory.of(root.resolve("train"));
        dev.brisk.nn.Sequential model = dev.brisk.nn.Sequential.of(dev.brisk.nn.layers.Layers.input(4, 4, 3),
                dev.brisk.nn.layers.Layers.flatten(), dev.brisk.nn.layers.Layers.dense(3));
        model.compile(dev.brisk.optimizers.Optimizers.sgd(0.1f),
                dev.brisk.losses.Losses.sparseCategoricalCrossentropy(true));
        Pipeline<Batch> train = trainDir.pipeline().shuffle(4, 1).batch(2).prefetch(1);
        Pipeline<Batch> ownClasses = ImageDirectory.of(root.resolve("test")).pipeline().batch(2);
        assertEquals(List.of("A", "B", "C"), train.classNames());
        assertEquals(List.of("A", "C"), ownClasses.classNames());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> model.fit(train, dev.brisk.nn.Fit.epochs(1).verbose(0).validation(ownClasses)));
        assertTrue(e.getMessage().contains("[A, B, C]") && e.getMessage().contains("[A, C]"), e.getMessage());
        Pipeline<Batch> trainClasses = ImageDirectory.of(root.resolve("test"), trainDir.classNames()).pipeline()
                .batch(2);
        model.fit(train, dev.brisk.nn.Fit.epochs(1).verbose(0).validation(trainClasses));
    }
}
