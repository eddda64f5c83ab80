package dev.brisk.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The weights file's format: sizes checked before allocation, versions, checksums. */
class WeightsFileTest {
    @TempDir
    Path dir;

    /** A version-1 header of one tensor {@code name} of shape {@code dims}, without its data. */
    private static byte[] v1Header(String name, int... dims) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(0x425249534b573031L); // "BRISKW01"
        out.writeInt(1);
        out.writeUTF(name);
        out.writeInt(dims.length);
        for (int d : dims) {
            out.writeInt(d);
        }
        return bytes.toByteArray();
    }

    /** A file of {@code header} followed by holes up to {@code length} bytes (sparse, so cheap to make). */
    private Path sparseFile(String fileName, byte[] header, long length) throws IOException {
        Path f = dir.resolve(fileName);
        Files.write(f, header);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(length);
        } catch (IOException e) {
            Assumptions.abort("this file system cannot make a sparse file of " + length + " bytes: " + e);
        }
        return f;
    }

    private static void assertNames(IOException e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
        }
    }

    @Test
    void aTensorTooLargeForAnArrayInASparseFileIsAnIoExceptionNamingFileTensorAndOffset() throws IOException {
        // 2^40 elements: the file is long enough (a sparse 4 TiB), but no Java array holds them
        byte[] header = v1Header("huge", 1 << 20, 1 << 20);
        Path f = sparseFile("huge.brisk", header, header.length + (4L << 40));
        IOException e = assertThrows(IOException.class, () -> WeightsFile.load(f));
        assertNames(e, f.toString(), "'huge'", "offset " + (header.length - 12), "[1048576, 1048576]");

        // just under 2^31 elements: fits an int, but not a tensor's storage with its spare floats
        byte[] nearMax = v1Header("near", Integer.MAX_VALUE - 1);
        Path g = sparseFile("near.brisk", nearMax, nearMax.length + 4L * Integer.MAX_VALUE);
        IOException e2 = assertThrows(IOException.class, () -> WeightsFile.load(g));
        assertNames(e2, g.toString(), "'near'", "offset " + (nearMax.length - 8));
    }

    @Test
    void aTensorLargerThanTheFileIsRefusedBeforeAllocating() throws IOException {
        // a 30-byte file claiming 2^30 floats (4 GiB): refused from the file's length, not by running out of memory
        byte[] header = v1Header("w", 1 << 15, 1 << 15);
        Path f = dir.resolve("short.brisk");
        Files.write(f, header);
        IOException e = assertThrows(IOException.class, () -> WeightsFile.load(f));
        assertNames(e, f.toString(), "'w'", "truncated or damaged", "offset " + header.length);
    }

    @Test
    void aBadTensorCountIsAnIoExceptionNamingTheOffset() throws IOException {
        for (int count : new int[] {-1, Integer.MAX_VALUE}) {
            byte[] bytes = v1Header("w", 1);
            bytes[8] = (byte) (count >>> 24);
            bytes[9] = (byte) (count >>> 16);
            bytes[10] = (byte) (count >>> 8);
            bytes[11] = (byte) count;
            Path f = dir.resolve("count" + count + ".brisk");
            Files.write(f, bytes);
            IOException e = assertThrows(IOException.class, () -> WeightsFile.load(f), "count " + count);
            assertNames(e, f.toString(), "bad tensor count " + count, "offset 8");
        }
    }

    @Test
    void savedTensorsLoadBackInOrderWithTheirShapes() throws IOException {
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("dense/kernel", Tensor.of(new float[] {1, -2, 3.5f, Float.NaN, 0, -0f}, 2, 3));
        tensors.put("dense/bias", Tensor.of(new float[] {7, 8, 9}, 3));
        tensors.put("scalar", Tensor.scalar(42));
        tensors.put("empty", Tensor.zeros(0, 4));
        float[] big = new float[40_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = i * 0.25f - 3;
        }
        tensors.put("big", Tensor.of(big, 200, 200));
        Path f = dir.resolve("w.brisk");
        WeightsFile.save(f, tensors);
        Map<String, Tensor> back = WeightsFile.load(f);
        assertEquals(tensors.keySet().stream().toList(), back.keySet().stream().toList());
        for (String name : tensors.keySet()) {
            assertEquals(tensors.get(name).shape(), back.get(name).shape(), name);
            assertArrayEquals(tensors.get(name).toArray(), back.get(name).toArray(), name);
        }
    }
}
