package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdxReaderTest {
    @TempDir
    Path dir;

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    private static byte[] counting(int n) {
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
            data[i] = (byte) (i * 7);
        }
        return data;
    }

    @Test
    void readsUnsignedBytesRawAndGzipIdentically() throws IOException {
        byte[] file = IdxBytes.ubyte(new int[] {3, 2, 4}, counting(24));
        IdxArray raw = IdxReader.read(write("raw-idx3", file));
        // the .gz-less name proves detection is by content, not by suffix
        IdxArray gz = IdxReader.read(write("compressed-idx3", IdxBytes.gzip(file)));

        assertEquals(Shape.of(3, 2, 4), raw.shape());
        assertEquals(IdxType.UBYTE, raw.type());
        assertEquals(3, raw.count());
        for (int i = 0; i < 24; i++) {
            assertEquals((i * 7) & 0xFF, raw.values()[i]);
        }
        assertEquals(raw.shape(), gz.shape());
        assertArrayEquals(raw.values(), gz.values());
        assertEquals(Shape.of(3, 2, 4), raw.toTensor().shape());
    }

    @Test
    void decodesEverySupportedType() throws IOException {
        int[] dims = {2};
        assertArrayEquals(new float[] {-1, 127},
                IdxReader.read(write("b", IdxBytes.encode(0x09, dims, new byte[] {-1, 127}))).values());
        assertArrayEquals(new float[] {-300, 1000}, IdxReader.read(write("s", IdxBytes.encode(0x0B, dims,
                ByteBuffer.allocate(4).putShort((short) -300).putShort((short) 1000).array()))).values());
        assertArrayEquals(new float[] {-70000, 5}, IdxReader.read(write("i", IdxBytes.encode(0x0C, dims,
                ByteBuffer.allocate(8).putInt(-70000).putInt(5).array()))).values());
        assertArrayEquals(new float[] {1.5f, -0.25f}, IdxReader.read(write("f", IdxBytes.encode(0x0D, dims,
                ByteBuffer.allocate(8).putFloat(1.5f).putFloat(-0.25f).array()))).values());
        IdxArray d = IdxReader.read(write("d", IdxBytes.encode(0x0E, dims,
                ByteBuffer.allocate(16).putDouble(0.1).putDouble(3e10).array())));
        assertEquals(IdxType.DOUBLE, d.type());
        assertArrayEquals(new float[] {0.1f, 3e10f}, d.values());
    }

    @Test
    void scaledReadGivesExactlyTheQuotientsOfDividingAfterwards() throws IOException {
        ByteBuffer shorts = ByteBuffer.allocate(512);
        ByteBuffer ints = ByteBuffer.allocate(1024);
        ByteBuffer floats = ByteBuffer.allocate(1024);
        ByteBuffer doubles = ByteBuffer.allocate(2048);
        byte[] bytes = new byte[256];
        for (int i = 0; i < 256; i++) {
            bytes[i] = (byte) i;
            shorts.putShort((short) (i * 129 - 16000));
            ints.putInt(i * 8_388_617 - 1_000_000_000); // beyond 2^24: the int-to-float rounding is part of it
            floats.putFloat(i * 0.37f - 40f);
            doubles.putDouble(i * 0.123456789 - 15.5);
        }
        int[] dims = {256};
        byte[][] files = {IdxBytes.encode(0x08, dims, bytes), IdxBytes.encode(0x09, dims, bytes),
            IdxBytes.encode(0x0B, dims, shorts.array()), IdxBytes.encode(0x0C, dims, ints.array()),
            IdxBytes.encode(0x0D, dims, floats.array()), IdxBytes.encode(0x0E, dims, doubles.array())};
        for (float divisor : new float[] {255f, 7f, 1f}) {
            for (int f = 0; f < files.length; f++) {
                Path p = write("t" + f, files[f]);
                float[] plain = IdxReader.read(p).values();
                float[] scaled = IdxReader.read(p, divisor).values();
                for (int i = 0; i < plain.length; i++) {
                    assertEquals(Float.floatToRawIntBits(plain[i] / divisor), Float.floatToRawIntBits(scaled[i]),
                            "type 0x" + Integer.toHexString(files[f][2]) + " element " + i + " / " + divisor);
                }
            }
        }
    }

    /**
     * Above 4 MB of data the bytes are read on a second thread, in 1 MB chunks, while this one decodes: the same
     * values for every element size (chunk boundaries fall inside no element), raw and gzip.
     */
    @Test
    void largeFilesDecodeTheSameWhileReadInTheBackground() throws IOException {
        int bytes = 5_000_008; // over the background threshold, and not a whole number of chunks
        java.util.Random r = new java.util.Random(7);
        for (IdxType type : IdxType.values()) {
            int n = bytes / type.byteSize();
            ByteBuffer data = ByteBuffer.allocate(n * type.byteSize());
            for (int i = 0; i < n; i++) {
                switch (type) {
                    case UBYTE, BYTE -> data.put((byte) r.nextInt());
                    case SHORT -> data.putShort((short) r.nextInt());
                    case INT -> data.putInt(r.nextInt());
                    case FLOAT -> data.putFloat((float) r.nextGaussian());
                    case DOUBLE -> data.putDouble(r.nextGaussian() * 1e6);
                }
            }
            byte[] file = IdxBytes.encode(type.code(), new int[] {n}, data.array());
            float[] expected = new float[n];
            type.decode(data.array(), expected, 255f); // the one-pass decode, checked against division above
            assertArrayEquals(expected, IdxReader.read(write("big", file), 255f).values(), type.name());
            assertArrayEquals(expected, IdxReader.read(write("big.gz", IdxBytes.gzip(file)), 255f).values(),
                    type.name() + " gzip");
        }
    }

    @Test
    void aLargeFileCutInsideAnElementNamesWhereItEnds() throws IOException {
        int n = 700_000; // 5.6 MB of doubles
        byte[] file = IdxBytes.encode(IdxType.DOUBLE.code(), new int[] {n}, new byte[8 * n - 3]);
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(write("cut", file)));
        assertEquals(dir.resolve("cut") + ": truncated at offset " + (8 + 8 * n - 3) + ": expected " + 8 * n
                + " bytes of data after the header, found " + (8 * n - 3), e.getMessage());
    }

    /**
     * A header that promises far more data than the file holds is reported as truncated without allocating for what
     * it promises (here 1e9 values, 4 GB as floats); only sizes read in the background allocate up front.
     */
    @Test
    void aLyingHeaderCostsNoMoreThanTheFileHolds() throws IOException {
        Path p = write("lying", IdxBytes.ubyte(new int[] {1_000_000_000}, new byte[10]));
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(p + ": truncated at offset 18: expected 1000000000 bytes of data after the header, found 10",
                e.getMessage());
        assertTrue(allocated < 64L << 20, allocated + " bytes allocated");
    }

    /**
     * A small file whose header claims 300,000 images (235 MB) or 10 million bytes (the size read in the background,
     * 40 MB as floats) is reported as truncated after reading what is there, without allocating what the header
     * claims: raw (checked against the file's length), gzipped (against its trailer) and from a stream.
     */
    @Test
    void headerSizesAreCheckedAgainstTheDataBeforeAllocating() throws IOException {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int[] dims : new int[][] {{300_000, 28, 28}, {10_000_000}}) {
            byte[] file = IdxBytes.ubyte(dims, new byte[7_840]);
            int header = 4 + 4 * dims.length;
            long claimed = Arrays.stream(dims).asLongStream().reduce(1, (a, b) -> a * b);
            Path raw = write("small", file);
            Path gz = write("small.gz", IdxBytes.gzip(file));
            for (int how = 0; how < 3; how++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                IdxFormatException e = assertThrows(IdxFormatException.class, switch (how) {
                    case 0 -> () -> IdxReader.read(raw);
                    case 1 -> () -> IdxReader.read(gz);
                    default -> () -> IdxReader.read(new ByteArrayInputStream(IdxBytes.gzip(file)), raw);
                });
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                Path named = how == 1 ? gz : raw;
                assertEquals(named + ": truncated at offset " + (header + 7_840) + ": expected " + claimed
                        + " bytes of data after the header, found 7840", e.getMessage());
                assertTrue(allocated < 4L << 20, how + ": " + allocated + " bytes allocated for " + claimed
                        + " claimed");
            }
        }
    }

    @Test
    void largeTruncatedFilesNameTheOffsetWhereTheyEnd() throws IOException {
        byte[] file = IdxBytes.ubyte(new int[] {5000, 1000}, new byte[3_000_000]);
        IdxFormatException raw = assertThrows(IdxFormatException.class, () -> IdxReader.read(write("short", file)));
        assertEquals(dir.resolve("short") + ": truncated at offset 3000012: expected 5000000 bytes of data after the"
                + " header, found 3000000", raw.getMessage());
        byte[] gz = IdxBytes.gzip(IdxBytes.ubyte(new int[] {5_000_000}, counting(5_000_000)));
        Path cut = write("cut-big.gz", Arrays.copyOf(gz, gz.length / 2));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(cut));
        assertTrue(e.getMessage().startsWith(cut + ": truncated or corrupt gzip data after "), e.getMessage());
        assertTrue(e.offset() > 0 && e.offset() < 5_000_008, "offset " + e.offset());
    }

    /** A caller interrupted while the background read runs gets an InterruptedIOException and no stray thread. */
    @Test
    void interruptedLargeReadStopsItsReaderThread() throws Exception {
        byte[] gz = IdxBytes.gzip(IdxBytes.ubyte(new int[] {40_000_000}, new byte[40_000_000]));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            Thread.currentThread().interrupt(); // the first wait for a chunk fails at once
            try {
                // A stream of known length: the header is confirmed, so the data is read in the background.
                IdxReader.read(new ByteArrayInputStream(gz), Path.of("memory"), 1f, -1, 40_000_008);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        caller.setDaemon(true);
        caller.start();
        caller.join(30_000);
        assertTrue(!caller.isAlive(), "the interrupted read hung (its reader thread was never stopped)");
        assertTrue(thrown.get() instanceof java.io.InterruptedIOException, String.valueOf(thrown.get()));
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("brisk-idx-read") && t.isAlive()), "reader thread left running");
    }

    @Test
    void readsFromAStream() throws IOException {
        byte[] file = IdxBytes.gzip(IdxBytes.ubyte(new int[] {4}, new byte[] {1, 2, 3, (byte) 200}));
        IdxArray a = IdxReader.read(new ByteArrayInputStream(file), Path.of("memory"));
        assertArrayEquals(new float[] {1, 2, 3, 200}, a.values());
    }

    @Test
    void badMagicNamesFileAndOffset() throws IOException {
        Path p = write("labels.bin", ByteBuffer.allocate(12).putInt(0x12345678).putInt(1).putInt(0).array());
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertEquals(p + ": bad magic number 0x12345678 at offset 0, expected an IDX file (0x000008xx)",
                e.getMessage());
        assertEquals(0, e.offset());
        assertEquals(p, e.file());
    }

    @Test
    void unsupportedTypeNamesTheCode() throws IOException {
        Path p = write("weird", IdxBytes.encode(0x07, new int[] {1}, new byte[] {0}));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertTrue(e.getMessage().startsWith(p + ": unsupported IDX data type 0x07 at offset 2"), e.getMessage());
        assertTrue(e.getMessage().contains("0x08 ubyte"), e.getMessage());
        assertEquals(2, e.offset());
    }

    @Test
    void truncatedMagic() throws IOException {
        Path p = write("tiny", new byte[] {0, 0, 8});
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertTrue(e.getMessage().startsWith(p + ": truncated at offset 3: expected a 4-byte magic number"),
                e.getMessage());
        assertEquals(3, e.offset());
    }

    @Test
    void truncatedHeaderDimensions() throws IOException {
        byte[] full = IdxBytes.ubyte(new int[] {60000, 28, 28}, new byte[0]);
        Path p = write("train-images-idx3-ubyte", Arrays.copyOf(full, 10)); // magic + 1.5 dimensions
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertEquals(p + ": truncated at offset 10: expected 3 big-endian int32 dimensions in the header at offset 4,"
                + " found 6 of 12 bytes", e.getMessage());
        assertEquals(10, e.offset());
    }

    @Test
    void truncatedDataRaw() throws IOException {
        Path p = write("train-images-idx3-ubyte", IdxBytes.ubyte(new int[] {60000, 28, 28}, new byte[100]));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertEquals(p + ": truncated at offset 116: expected 47040000 bytes of data after the header, found 100",
                e.getMessage());
        assertEquals(116, e.offset());
    }

    @Test
    void truncatedDataInsideACompleteGzipStream() throws IOException {
        Path p = write("t10k-labels-idx1-ubyte.gz", IdxBytes.gzip(IdxBytes.ubyte(new int[] {10000}, new byte[9999])));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertEquals(p + ": truncated at offset 10007: expected 10000 bytes of data after the header, found 9999",
                e.getMessage());
    }

    @Test
    void truncatedGzipStreamIsReportedWithUncompressedOffset() throws IOException {
        byte[] gz = IdxBytes.gzip(IdxBytes.ubyte(new int[] {1000}, counting(1000)));
        Path p = write("cut.gz", Arrays.copyOf(gz, gz.length / 2));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertTrue(e.getMessage().startsWith(p + ": truncated or corrupt gzip data after "), e.getMessage());
        assertTrue(e.getMessage().contains("at offset " + e.offset()), e.getMessage());
        assertTrue(e.offset() >= 0 && e.offset() < 1008, "offset " + e.offset());
    }

    @Test
    void trailingBytesAreRejected() throws IOException {
        byte[] file = IdxBytes.ubyte(new int[] {2}, new byte[] {1, 2, 3, 4, 5});
        Path p = write("long", file);
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertTrue(e.getMessage().startsWith(p + ": 3 unexpected trailing byte(s) at offset 10"), e.getMessage());
        assertEquals(10, e.offset());
    }

    @Test
    void negativeDimensionIsRejected() throws IOException {
        Path p = write("neg", IdxBytes.ubyte(new int[] {2, -1}, new byte[0]));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertEquals(p + ": negative dimension -1 at offset 8 (dimension 1 of 2)", e.getMessage());
    }

    @Test
    void hugeDimensionsAreRejectedBeforeReading() throws IOException {
        int[] dims = {Integer.MAX_VALUE, Integer.MAX_VALUE, 0x7fff};
        Path p = write("huge", IdxBytes.encode(0x0E, dims, new byte[0]));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> IdxReader.read(p));
        assertEquals(p + ": dimensions [2147483647, 2147483647, 32767] at offset 4 describe more than 2147483639"
                + " elements of type double, too many to load into one Java array", e.getMessage());
        Path empty = write("empty", IdxBytes.ubyte(new int[] {Integer.MAX_VALUE, 0}, new byte[0]));
        assertEquals(Shape.of(Integer.MAX_VALUE, 0), IdxReader.read(empty).shape());
    }
}
