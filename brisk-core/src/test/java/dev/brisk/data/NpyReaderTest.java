package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NPY files written by NumPy (tools/fixtures/make_npy_fixtures.py). */
class NpyReaderTest {
    private static final float[] HALVES = {0, 1.5f, 3, 4.5f, 6, 7.5f};
    private static final float[] COUNT = {0, 1, 2, 3, 4, 5};

    @TempDir
    Path tmp;

    static Path fixture(String name) {
        try {
            return Path.of(NpyReaderTest.class.getResource("/npy/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static DataFormatException refused(String name) {
        return assertThrows(DataFormatException.class, () -> NpyReader.read(fixture(name)));
    }

    @Test
    void readsEverySupportedTypeAndByteOrder() throws IOException {
        for (String name : List.of("float32.npy", "float64_big_endian.npy", "version2.npy")) {
            Tensor t = NpyReader.read(fixture(name));
            assertEquals(Shape.of(2, 3), t.shape(), name);
            assertArrayEquals(HALVES, t.toArray(), name);
        }
        for (String name : List.of("uint8.npy", "int32.npy", "int64.npy")) {
            Tensor t = NpyReader.read(fixture(name));
            assertEquals(Shape.of(2, 3), t.shape(), name);
            assertArrayEquals(COUNT, t.toArray(), name);
        }
        Tensor scalar = NpyReader.read(fixture("scalar.npy"));
        assertEquals(Shape.scalar(), scalar.shape());
        assertEquals(2.5f, scalar.get(0));
    }

    @Test
    void arraysFeedAPipeline() throws IOException {
        Tensor x = NpyReader.read(fixture("float32.npy")).slice(0, 2);
        Tensor y = NpyReader.read(fixture("labels_int64.npy")).slice(0, 2);
        Batch b = Pipeline.fromArrays(x, y).batch(2).toList().get(0);
        assertArrayEquals(HALVES, b.features().toArray());
        assertArrayEquals(new float[] {0, 2}, b.labels().toArray());
    }

    @Test
    void unsupportedTypesAreNamed() {
        String supported = "supported: float32 (<f4), float64 (<f8), uint8 (|u1), int32 (<i4) and int64 (<i8), "
                + "little- or big-endian";
        DataFormatException half = refused("float16.npy");
        assertEquals(fixture("float16.npy") + ": unsupported dtype '<f2' in the header at offset 10; " + supported,
                half.getMessage());
        assertEquals(10, half.offset());
        assertEquals(fixture("float16.npy"), half.file());
        assertTrue(refused("bool.npy").getMessage().contains("unsupported dtype '|b1'"));
        assertTrue(refused("structured.npy").getMessage().contains("has no readable 'descr' entry (structured "
                + "dtypes are not supported)"));
    }

    @Test
    void fortranOrderIsRefused() {
        assertEquals(fixture("fortran.npy") + ": Fortran-order (column-major) arrays are not supported (header at "
                + "offset 10); save a C-order array, e.g. np.save(path, np.ascontiguousarray(a))",
                refused("fortran.npy").getMessage());
    }

    @Test
    void integersFloat32CannotHoldAreRefusedNotRounded() {
        DataFormatException e = refused("int64_too_large.npy");
        assertEquals(fixture("int64_too_large.npy") + ": value 16777217 of element 3 (1, 1) at offset 152 cannot be "
                + "represented exactly as float32 (integers up to 2^24 can)", e.getMessage());
        assertEquals(152, e.offset());
    }

    @Test
    void truncatedTrailingAndForeignFilesNameTheOffset() throws IOException {
        byte[] good = Files.readAllBytes(fixture("float32.npy"));
        Path truncated = tmp.resolve("truncated.npy");
        Files.write(truncated, Arrays.copyOf(good, good.length - 5));
        DataFormatException t = assertThrows(DataFormatException.class, () -> NpyReader.read(truncated));
        assertEquals(truncated + ": truncated at offset 147: expected 24 bytes of data after the header (offset "
                + "128), found 19", t.getMessage());
        Path trailing = tmp.resolve("trailing.npy");
        Files.write(trailing, Arrays.copyOf(good, good.length + 3));
        assertEquals(trailing + ": 3 unexpected trailing byte(s) at offset 152: the header describes exactly 6 "
                + "elements of <f4", assertThrows(DataFormatException.class, () -> NpyReader.read(trailing))
                .getMessage());
        Path csv = tmp.resolve("data.npy");
        Files.writeString(csv, "a,b\n1,2\n");
        assertEquals(csv + ": not an NPY file: the first bytes are not \\x93NUMPY",
                assertThrows(DataFormatException.class, () -> NpyReader.read(csv)).getMessage());
    }
}
