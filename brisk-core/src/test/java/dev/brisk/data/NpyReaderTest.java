package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
        assertEquals(truncated + ": truncated at offset 147: the header's shape [2, 3] of <f4 needs 24 bytes of data "
                + "after the header (offset 128), found 19 (the file has 147 bytes)", t.getMessage());
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

    /** A version 1.0 NPY file with header dict {@code dict} (padded as numpy pads it) and then {@code data}. */
    private Path npy(String name, String dict, byte[] data) throws IOException {
        int unpadded = 10 + dict.length() + 1;
        String header = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        out.write(header.length() & 0xFF);
        out.write(header.length() >> 8);
        out.write(header.getBytes(StandardCharsets.ISO_8859_1));
        out.write(data);
        Path file = tmp.resolve(name);
        Files.write(file, out.toByteArray());
        return file;
    }

    @Test
    void aHeaderClaimingMoreThanTheFileHoldsIsRefusedBeforeAllocating() throws IOException {
        // 8 GB claimed, twice the test heap: reading it would run out of memory before finding the truncation.
        Path file = npy("huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2000000000,), }",
                new byte[16]);
        DataFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(DataFormatException.class, () -> NpyReader.read(file)));
        assertEquals(file + ": truncated at offset 144: the header's shape [2000000000] of <f4 needs 8000000000 "
                + "bytes of data after the header (offset 128), found 16 (the file has 144 bytes)", e.getMessage());
        assertEquals(144, e.offset());
    }

    @Test
    void malformedHeadersAreRefusedWithTheOffset() throws IOException {
        byte[] six = new byte[24];
        // Each case: the header dict, what the error says, and the text at whose start it points (the dict's start
        // where it concerns the dict as a whole).
        String[][] cases = {
            {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'shape': (6,), }", "duplicate key 'shape'",
                "'shape': (6,)"},
            {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } junk", "unexpected text after the closing "
                + "brace", "junk"},
            {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}", "unexpected key 'extra'",
                "'extra'"},
            {"{'descr': '<f4', 'fortran_order': False}", "no 'shape' key", "{"},
            {"{'descr': '<f4', 'fortran_order': False, 'shape': (6)}", "'shape' must be a tuple", "{"},
            {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3) 'x'}", "expected ',' or '}'", "'x'"},
            {"{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3)}", "expected ',' or '}'", "fortran_order': F"},
            {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}", "'fortran_order' must be True or False", "{"},
            {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", "bad dimension 1", "{"},
            {"'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", "expected a dict literal", "'descr'"},
        };
        for (String[] c : cases) {
            Path file = npy("bad.npy", c[0], six);
            DataFormatException e = assertThrows(DataFormatException.class, () -> NpyReader.read(file), c[0]);
            assertTrue(e.getMessage().startsWith(file + ": malformed NPY header (at offset 10): "), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
            assertEquals(10 + c[0].lastIndexOf(c[2]), e.offset(), e.getMessage());
        }
        // What numpy writes, including Python 2's long suffix and a header without the trailing comma, still reads.
        Path file = npy("ok.npy", "{\"descr\": '<f4', 'fortran_order': False, 'shape': (2L, 3L)}", six);
        assertEquals(Shape.of(2, 3), NpyReader.read(file).shape());
        // A long dtype string is quoted shortened, not whole.
        Path longDescr = npy("descr.npy", "{'descr': '" + "x".repeat(1_000) + "', 'fortran_order': False, "
                + "'shape': (6,), }", six);
        String m = assertThrows(DataFormatException.class, () -> NpyReader.read(longDescr)).getMessage();
        assertTrue(m.length() < 400 && m.contains("unsupported dtype 'xxxxxxxx"), m);
    }
}
