package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unpacked copies: made on the first read, read after that, and never trusted when they are not whole. */
class UnpackedCacheTest {
    private static final String IMAGES = "train-images-idx3-ubyte.gz";

    @TempDir
    Path tmp;

    /** The mini Fashion-MNIST fixture copied into a directory of its own (so its time can be changed). */
    private Path data() throws IOException, URISyntaxException {
        Path source = Path.of(UnpackedCacheTest.class.getResource("/fashion-mnist-mini").toURI());
        Path dir = Files.createDirectories(tmp.resolve("data"));
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    private static List<Path> copies(Path cacheDir) throws IOException {
        try (Stream<Path> files = Files.list(cacheDir)) {
            return files.sorted().toList();
        }
    }

    private static long unpackedSize(Path gz) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    @Test
    void theFirstReadMakesTheCopyAndLaterReadsUseIt() throws Exception {
        Path gz = data().resolve(IMAGES);
        UnpackedCache cache = new UnpackedCache(tmp.resolve("cache"));
        IdxArray direct = IdxReader.read(gz, 255f);
        IdxArray first = cache.read(gz, 255f);
        assertArrayEquals(direct.values(), first.values());
        List<Path> made = copies(cache.dir());
        assertEquals(1, made.size(), made.toString());
        Path copy = made.get(0);
        assertEquals(unpackedSize(gz), Files.size(copy));

        // Change the copy's last pixel: a read that returns the change read the copy.
        try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {(byte) 255}), Files.size(copy) - 1);
        }
        IdxArray second = cache.read(gz, 255f);
        int last = second.values().length - 1;
        assertEquals(1f, second.values()[last]);
        assertNotEquals(1f, direct.values()[last], "the fixture's last pixel is not already 255");
        assertEquals(gz, second.source(), "errors and messages name the compressed file");
    }

    @Test
    void aCopyThatIsNotWholeIsMadeAgain() throws Exception {
        Path gz = data().resolve(IMAGES);
        UnpackedCache cache = new UnpackedCache(tmp.resolve("cache"));
        IdxArray direct = IdxReader.read(gz, 255f);
        cache.read(gz, 255f);
        Path copy = copies(cache.dir()).get(0);
        try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(copy) / 2);
        }
        assertArrayEquals(direct.values(), cache.read(gz, 255f).values());
        assertEquals(List.of(copy), copies(cache.dir()));
        assertEquals(unpackedSize(gz), Files.size(copy));
    }

    @Test
    void aChangedFileGetsANewCopyAndTheOldOneGoes() throws Exception {
        Path gz = data().resolve(IMAGES);
        UnpackedCache cache = new UnpackedCache(tmp.resolve("cache"));
        cache.read(gz, 255f);
        Path old = copies(cache.dir()).get(0);
        Files.setLastModifiedTime(gz, FileTime.fromMillis(Files.getLastModifiedTime(gz).toMillis() + 60_000));
        cache.read(gz, 255f);
        List<Path> now = copies(cache.dir());
        assertEquals(1, now.size(), now.toString());
        assertNotEquals(old, now.get(0));
    }

    @Test
    void aCopyNamedTheOldWayIsReplacedNotLeftBehind() throws Exception {
        Path gz = data().resolve(IMAGES);
        Path cacheDir = Files.createDirectories(tmp.resolve("cache"));
        String key = Files.size(gz) + "." + Files.getLastModifiedTime(gz).toMillis();
        Path legacy = cacheDir.resolve(UnpackedCache.legacyStem(gz) + key);
        Files.write(legacy, new byte[] {1, 2, 3});
        Path other = cacheDir.resolve("t10k-images-idx3-ubyte.0123456789abcdef." + key);
        Files.write(other, new byte[] {4});
        new UnpackedCache(cacheDir).read(gz, 255f);
        assertEquals(List.of(other, cacheDir.resolve(UnpackedCache.stem(gz) + key)), copies(cacheDir));
    }

    @Test
    void aCacheThatCannotBeWrittenStillReads() throws Exception {
        Path gz = data().resolve(IMAGES);
        Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
        UnpackedCache cache = new UnpackedCache(notADirectory.resolve("cache"));
        assertArrayEquals(IdxReader.read(gz, 255f).values(), cache.read(gz, 255f).values());
    }

    @Test
    void fashionMnistThroughTheCacheIsFashionMnist() throws Exception {
        Path dir = data();
        UnpackedCache cache = new UnpackedCache(tmp.resolve("cache"));
        TrainTestSplit plain = FashionMnist.load(dir);
        for (int pass = 0; pass < 2; pass++) { // makes the copies, then reads them
            TrainTestSplit cached = FashionMnist.load(dir, 255f, cache);
            assertArrayEquals(plain.train().features().toArray(), cached.train().features().toArray());
            assertArrayEquals(plain.train().labels().toArray(), cached.train().labels().toArray());
            assertArrayEquals(plain.test().features().toArray(), cached.test().features().toArray());
            assertArrayEquals(plain.test().labels().toArray(), cached.test().labels().toArray());
        }
        assertEquals(4, copies(cache.dir()).size());
    }

    /** An IDX file of {@code n} 28x28 images whose pixels count up, gzip-compressed, at {@code gz}. */
    private static void writeImages(Path gz, int n) throws IOException {
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(new java.util.zip.GZIPOutputStream(
                Files.newOutputStream(gz)))) {
            out.writeInt(0x00000803);
            out.writeInt(n);
            out.writeInt(28);
            out.writeInt(28);
            byte[] image = new byte[28 * 28];
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < image.length; k++) {
                    image[k] = (byte) (i + k);
                }
                out.write(image);
            }
        }
    }

    @Test
    void aFileReadOnTheBackgroundThreadIsCopiedWhole() throws Exception {
        // 8,000 images, 6.3 MB unpacked: the size the reader inflates on a background thread (4-64 MB).
        Path gz = Files.createDirectories(tmp.resolve("big")).resolve("images.gz");
        writeImages(gz, 8000);
        UnpackedCache cache = new UnpackedCache(tmp.resolve("cache"));
        IdxArray direct = IdxReader.read(gz, 1f);
        assertArrayEquals(direct.values(), cache.read(gz, 1f).values());
        assertEquals(unpackedSize(gz), Files.size(copies(cache.dir()).get(0)));
        assertArrayEquals(direct.values(), cache.read(gz, 1f).values());
    }

    @Test
    void aBrokenSourceLeavesNoCopyBehind() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("broken"));
        Path whole = dir.resolve("whole.gz");
        writeImages(whole, 100);
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = Files.write(dir.resolve("cut.gz"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
        UnpackedCache cache = new UnpackedCache(tmp.resolve("cache"));
        org.junit.jupiter.api.Assertions.assertThrows(IdxFormatException.class, () -> cache.read(cut, 1f));
        assertEquals(List.of(), copies(cache.dir()), "no copy and no temporary file");
    }

    @Test
    void filesOfOneNameInTwoDirectoriesKeepTheirOwnCopies() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("Aa")).resolve("t[1].gz");
        Path b = Files.createDirectories(tmp.resolve("BB")).resolve("t[1].gz");
        writeImages(a, 3);
        writeImages(b, 5);
        FileTime time = FileTime.fromMillis(1_600_000_000_000L);
        Files.setLastModifiedTime(a, time);
        Files.setLastModifiedTime(b, time);
        UnpackedCache cache = new UnpackedCache(tmp.resolve("cache"));
        for (int pass = 0; pass < 2; pass++) {
            assertEquals(3, cache.read(a, 1f).count());
            assertEquals(5, cache.read(b, 1f).count());
        }
        assertEquals(2, copies(cache.dir()).size());
    }

    @Test
    void theSettingNamesTheDirectoryOrTurnsTheCacheOff() {
        String saved = System.getProperty(UnpackedCache.PROPERTY);
        try {
            System.setProperty(UnpackedCache.PROPERTY, tmp.resolve("c").toString());
            assertEquals(tmp.resolve("c"), UnpackedCache.fromEnvironment().dir());
            System.setProperty(UnpackedCache.PROPERTY, "none");
            assertNull(UnpackedCache.fromEnvironment());
            System.setProperty(UnpackedCache.PROPERTY, "NONE");
            assertNull(UnpackedCache.fromEnvironment());
            System.setProperty(UnpackedCache.PROPERTY, "relative/dir");
            assertNull(UnpackedCache.fromEnvironment(), "a relative directory would follow the working directory");
        } finally {
            if (saved == null) {
                System.clearProperty(UnpackedCache.PROPERTY);
            } else {
                System.setProperty(UnpackedCache.PROPERTY, saved);
            }
        }
    }
}
