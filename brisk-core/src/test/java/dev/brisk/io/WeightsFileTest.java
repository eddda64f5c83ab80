package dev.brisk.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.nn.Activation;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
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

    /** The bytes of a version-1 file (no checksums) holding {@code tensors}, written as Brisk used to write it. */
    private static byte[] v1File(Map<String, Tensor> tensors) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(0x425249534b573031L); // "BRISKW01"
        out.writeInt(tensors.size());
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeInt(e.getValue().shape().rank());
            for (int d : e.getValue().shape().dims()) {
                out.writeInt(d);
            }
            for (int i = 0; i < e.getValue().size(); i++) {
                out.writeFloat(e.getValue().get(i));
            }
        }
        return bytes.toByteArray();
    }

    private static Map<String, Tensor> threeTensors() {
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("a", Tensor.of(new float[] {1, 2, 3, 4}, 2, 2));
        tensors.put("b", Tensor.of(new float[] {5, 6, 7, 8, 9, 10}, 6));
        tensors.put("c", Tensor.of(new float[] {11}, 1));
        return tensors;
    }

    @Test
    void oneFlippedBitInATensorsValuesFailsTheLoadNamingFileAndTensor() throws IOException {
        Path f = dir.resolve("w.brisk");
        WeightsFile.save(f, threeTensors());
        byte[] good = Files.readAllBytes(f);
        // magic 8, count 4; "a": name 3, rank 4, dims 8, values 16, crc 4; "b": name 3, rank 4, dim 4, values 24
        int aRecord = 12;
        int bRecord = aRecord + 3 + 4 + 8 + 16 + 4;
        int bValues = bRecord + 3 + 4 + 4;
        for (int at : new int[] {bValues, bValues + 23, bRecord + 2, bValues + 24}) {
            byte[] bad = good.clone();
            bad[at] ^= 0x10;
            Path g = dir.resolve("flipped" + at + ".brisk");
            Files.write(g, bad);
            IOException e = assertThrows(IOException.class, () -> WeightsFile.load(g), "flip at " + at);
            assertNames(e, g.toString(), "damaged", "offset " + bRecord);
            if (at != bRecord + 2) { // a flip in the name itself is named by its offset only
                assertNames(e, "tensor 'b'");
            }
        }
        assertArrayEquals(new float[] {5, 6, 7, 8, 9, 10}, WeightsFile.load(f).get("b").toArray());
    }

    @Test
    void aFailedChecksumLeavesTheModelsWeightsAsTheyWere() throws IOException {
        RandomSeed.set(5);
        Sequential model = Sequential.of(Layers.input(4), Layers.dense(6, Activation.TANH), Layers.dense(2));
        Path f = dir.resolve("model.brisk");
        model.saveWeights(f);
        byte[] bad = Files.readAllBytes(f);
        bad[bad.length - 10] ^= 1; // a value of the last tensor
        Files.write(f, bad);
        RandomSeed.set(6);
        Sequential other = Sequential.of(Layers.input(4), Layers.dense(6, Activation.TANH), Layers.dense(2));
        List<Tensor> before = other.getWeights().stream().map(Tensor::copy).toList();
        IOException e = assertThrows(IOException.class, () -> other.loadWeights(f));
        assertNames(e, f.toString(), "damaged", "CRC32C");
        List<Tensor> after = other.getWeights();
        for (int i = 0; i < before.size(); i++) {
            assertArrayEquals(before.get(i).toArray(), after.get(i).toArray(), "weight " + i);
        }
    }

    @Test
    void aVersionOneFileWithoutChecksumsStillLoads() throws IOException {
        Map<String, Tensor> tensors = threeTensors();
        Path f = dir.resolve("old.brisk");
        Files.write(f, v1File(tensors));
        Map<String, Tensor> back = WeightsFile.load(f);
        assertEquals(List.of("a", "b", "c"), List.copyOf(back.keySet()));
        for (String name : tensors.keySet()) {
            assertEquals(tensors.get(name).shape(), back.get(name).shape(), name);
            assertArrayEquals(tensors.get(name).toArray(), back.get(name).toArray(), name);
        }

        // a model's weights saved by an older Brisk load into the model
        RandomSeed.set(7);
        Sequential model = Sequential.of(Layers.input(4), Layers.dense(6, Activation.TANH), Layers.dense(2));
        Map<String, Tensor> weights = new LinkedHashMap<>();
        List<Tensor> values = model.getWeights();
        for (int i = 0; i < values.size(); i++) {
            Tensor v = values.get(i).copy();
            for (int k = 0; k < v.size(); k++) {
                v.set(k, i + k * 0.5f);
            }
            weights.put("old_name_" + i, v);
        }
        Path m = dir.resolve("old-model.brisk");
        Files.write(m, v1File(weights));
        model.loadWeights(m);
        for (int i = 0; i < values.size(); i++) {
            assertArrayEquals(weights.get("old_name_" + i).toArray(), model.getWeights().get(i).toArray());
        }
    }

    @Test
    void aNewerFormatVersionAndTrailingBytesAreRefusedClearly() throws IOException {
        Path f = dir.resolve("w.brisk");
        WeightsFile.save(f, threeTensors());
        byte[] newer = Files.readAllBytes(f);
        newer[7] = '3';
        Path g = dir.resolve("newer.brisk");
        Files.write(g, newer);
        assertNames(assertThrows(IOException.class, () -> WeightsFile.load(g)), g.toString(), "'BRISKW03'",
                "newer");

        byte[] longer = java.util.Arrays.copyOf(Files.readAllBytes(f), Files.readAllBytes(f).length + 1);
        Path h = dir.resolve("longer.brisk");
        Files.write(h, longer);
        assertNames(assertThrows(IOException.class, () -> WeightsFile.load(h)), h.toString(),
                "after the last of 3 tensors", "offset " + (longer.length - 1));
    }
}
