package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.config.Setting;
import dev.brisk.tensor.Shape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvDatasetTest {
    @TempDir
    Path tmp;

    private Path write(String name, String text) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private CsvDataset iris(Path file) throws IOException {
        return CsvDataset.builder(file)
                .label("species", ColumnType.category("setosa", "versicolor", "virginica"))
                .column("id", ColumnType.IGNORE)
                .column("petals", ColumnType.INT)
                .build();
    }

    @Test
    void typedColumnsBecomeFeaturesAndALabel() throws IOException {
        Path f = write("iris.csv", "\uFEFFid,length,\"width, cm\",petals,species\n"
                + "7,5.1,3.5,5,setosa\n"
                + "\n"
                + "8, 4.9 ,\"3.0\",+6,virginica\n"
                + "9,-1e-1,nan,0,versicolor\n");
        CsvDataset ds = iris(f);
        assertEquals(List.of("length", "width, cm", "petals"), ds.featureNames());
        List<Sample> rows = ds.toList();
        assertEquals(3, rows.size());
        assertEquals(Shape.of(3), rows.get(0).features().shape());
        assertEquals(Shape.scalar(), rows.get(0).label().shape());
        assertArrayEquals(new float[] {5.1f, 3.5f, 5}, rows.get(0).features().toArray());
        assertArrayEquals(new float[] {4.9f, 3.0f, 6}, rows.get(1).features().toArray());
        assertEquals(2f, rows.get(1).label().get(0));
        assertEquals(-0.1f, rows.get(2).features().get(0));
        assertTrue(Float.isNaN(rows.get(2).features().get(1)));
        assertEquals(1f, rows.get(2).label().get(0));
        // Each pass reads the file again.
        assertEquals(3, ds.batch(2).toList().stream().mapToInt(Batch::size).sum());
        assertEquals(Pipeline.UNKNOWN, ds.cardinality());
    }

    @Test
    void withoutALabelColumnSamplesHaveFeaturesOnly() throws IOException {
        Path f = write("x.csv", "a;b\n1;2\n3;4\n");
        CsvDataset ds = CsvDataset.builder(f).delimiter(';').build();
        Batch b = ds.batch(5).toList().get(0);
        assertNull(b.labels());
        assertArrayEquals(new float[] {1, 2, 3, 4}, b.features().toArray());
    }

    private BadRecordException badRow(CsvDataset ds) {
        return assertThrows(BadRecordException.class, ds::toList);
    }

    @Test
    void aRowWithTheWrongColumnCountNamesFileAndLine() throws IOException {
        Path f = write("short.csv", "id,length,width,petals,species\n1,2,3,4,setosa\n2,3,4,setosa\n");
        BadRecordException e = badRow(iris(f));
        assertEquals(f + " line 3: expected 5 columns (as in the header), found 4", e.getMessage());
        assertEquals(f, e.file());
        assertEquals(3, e.record());
    }

    @Test
    void aCellThatIsNotANumberNamesFileLineAndColumn() throws IOException {
        Path f = write("nan.csv", "id,length,width,petals,species\n1,2,3,4,setosa\n2,3,abc,4,setosa\n");
        assertEquals(f + " line 3, column 'width' (3): 'abc' is not a number", badRow(iris(f)).getMessage());
        String header = "id,length,width,petals,species\n";
        assertEquals("line 2, column 'width' (3): empty value", tail(iris(write("e.csv", header + "1,2,,4,setosa"))));
        assertEquals("line 2, column 'length' (2): '1.5f' is not a number",
                tail(iris(write("j.csv", header + "1,1.5f,2,4,setosa"))));
        assertEquals("line 2, column 'petals' (4): '4.5' is not an integer",
                tail(iris(write("i.csv", header + "1,2,3,4.5,setosa"))));
        assertEquals("line 2, column 'petals' (4): '16777217' cannot be represented exactly as float32 (integers up "
                + "to 2^24 can)", tail(iris(write("big.csv", header + "1,2,3,16777217,setosa"))));
        assertEquals("line 2, column 'length' (2): '1e39' is beyond float32's range",
                tail(iris(write("r.csv", header + "1,1e39,3,4,setosa"))));
        assertEquals("line 2, column 'species' (5): 'rose' is not one of the categories [setosa, versicolor, "
                + "virginica]", tail(iris(write("c.csv", header + "1,2,3,4,rose"))));
        assertEquals("line 2: the quote opened at character 3 is not closed (fields may not span lines)",
                tail(iris(write("q.csv", header + "1,\"2,3,4,setosa"))));
    }

    private String tail(CsvDataset ds) {
        String m = badRow(ds).getMessage();
        return m.substring(m.indexOf(" line ") + 1);
    }

    @Test
    void badRowsCanBeSkippedAndCounted() throws IOException {
        Path f = write("mixed.csv", "id,length,width,petals,species\n"
                + "1,1,1,1,setosa\n"
                + "2,2,x,2,setosa\n"
                + "3,3,3,3,setosa,extra\n"
                + "4,4,4,4,virginica\n");
        BadRecords bad = new BadRecords();
        List<Sample> rows = iris(f).ignoreErrors(bad).toList();
        assertEquals(2, rows.size());
        assertEquals(4f, rows.get(1).features().get(0));
        assertEquals(2, bad.count());
        assertEquals(List.of(f + " line 3, column 'width' (3): 'x' is not a number",
                f + " line 4: expected 5 columns (as in the header), found 6"), bad.messages());
        // Skipping works behind a parallel map and a prefetch too.
        BadRecords again = new BadRecords();
        assertEquals(2, iris(f).map(s -> s, 2).prefetch(2).ignoreErrors(again).batch(8).toList().get(0).size());
        assertEquals(2, again.count());
    }

    @Test
    void headerProblemsAreFoundWhenBuilt() throws IOException {
        Path empty = write("empty.csv", "");
        assertEquals(empty + ": no header line (the first line must name the columns)",
                assertThrows(DataFormatException.class, () -> CsvDataset.builder(empty).build()).getMessage());
        Path twice = write("twice.csv", "a,b,a\n1,2,3\n");
        assertEquals(twice + " line 1 (header): column 'a' appears twice",
                assertThrows(DataFormatException.class, () -> CsvDataset.builder(twice).build()).getMessage());
        Path ok = write("ok.csv", "a,b\n1,2\n");
        assertEquals(ok + ": label column 'y' is not in the header [a, b]",
                assertThrows(DataFormatException.class, () -> CsvDataset.builder(ok).label("y").build())
                        .getMessage());
        assertEquals(ok + ": column 'c' is not in the header [a, b]", assertThrows(DataFormatException.class,
                () -> CsvDataset.builder(ok).column("c", ColumnType.INT).build()).getMessage());
        assertEquals(ok + ": no feature columns left in [a, b]", assertThrows(DataFormatException.class,
                () -> CsvDataset.builder(ok).label("a").column("b", ColumnType.IGNORE).build()).getMessage());
    }

    /** 100,000 header columns: the duplicate check is linear (quadratic, it took 10 to 15 seconds). */
    @Test
    void aWideHeaderIsCheckedInLinearTime() throws IOException {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            header.append(i > 0 ? "," : "").append("column").append(i);
        }
        Path f = write("wide.csv", header + "\n");
        CsvDataset ds = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> CsvDataset.builder(f).build());
        assertEquals(100_000, ds.header().size());
        Path twice = write("wide-twice.csv", header + ",column99999\n");
        DataFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(DataFormatException.class, () -> CsvDataset.builder(twice).build()));
        assertEquals(twice + " line 1 (header): column 'column99999' appears twice", e.getMessage());
        Path ok = write("wide-ok.csv", header + "\n");
        String missing = assertThrows(DataFormatException.class, () -> CsvDataset.builder(ok).label("y").build())
                .getMessage();
        assertTrue(missing.endsWith("column18, column19, ... (99980 more)]"), missing);
    }

    /**
     * A byte that is not UTF-8 makes its own row a bad record, with the right line and the byte offset, that
     * ignoreErrors skips; with the file's real charset the row reads.
     */
    @Test
    void anUndecodableByteIsABadRecordNamingLineAndOffset() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("a,name\n".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < 1500; i++) {
            bytes.writeBytes((i + ",x\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        long offset = bytes.size() + 5;
        bytes.writeBytes("1500,caf".getBytes(StandardCharsets.US_ASCII));
        bytes.write(0xE9); // é in ISO-8859-1
        bytes.writeBytes("\n1501,y\n".getBytes(StandardCharsets.US_ASCII));
        Path f = tmp.resolve("latin1.csv");
        Files.write(f, bytes.toByteArray());
        CsvDataset utf8 = CsvDataset.builder(f).column("name", ColumnType.IGNORE).build();
        BadRecordException e = badRow(utf8);
        assertEquals(f + " line 1502: byte 0xE9 at offset " + (offset + 3) + " is not valid UTF-8 (set the charset "
                + "on CsvDataset.builder if the file is in another encoding)", e.getMessage());
        assertEquals(1502, e.record());
        BadRecords bad = new BadRecords();
        List<Sample> rows = utf8.ignoreErrors(bad).toList();
        assertEquals(1501, rows.size());
        assertEquals(1501f, rows.get(1500).features().get(0));
        assertEquals(1, bad.count());
        CsvDataset latin1 = CsvDataset.builder(f).charset(StandardCharsets.ISO_8859_1)
                .label("name", ColumnType.category("x", "café", "y")).build();
        List<Sample> all = latin1.toList();
        assertEquals(1502, all.size());
        assertEquals(1f, all.get(1500).label().get(0));
        assertThrows(IllegalArgumentException.class, () -> CsvDataset.builder(f).charset(StandardCharsets.UTF_16));
    }

    /**
     * A line over the length limit, or with more cells than the limit, is a bad record read without keeping it (a
     * 10 MB line costs no more than the limit), and messages quote at most 40 characters of a cell.
     */
    @Test
    void linesAndCellsAreBoundedAndMessagesQuoteAShortPrefix() throws IOException {
        String huge = "1,".repeat(5_000_000) + "1";
        Path f = write("long.csv", "a,b\n1,2\n" + huge + "\n3,4\n");
        String saved = System.getProperty(Setting.CSV_MAX_LINE_CHARS.property());
        System.setProperty(Setting.CSV_MAX_LINE_CHARS.property(), "100000");
        CsvDataset ds;
        try {
            ds = CsvDataset.builder(f).build();
        } finally {
            if (saved == null) {
                System.clearProperty(Setting.CSV_MAX_LINE_CHARS.property());
            } else {
                System.setProperty(Setting.CSV_MAX_LINE_CHARS.property(), saved);
            }
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        BadRecords bad = new BadRecords();
        List<Sample> rows = ds.ignoreErrors(bad).toList();
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(2, rows.size());
        assertEquals(List.of(f + " line 3 (at offset 8): the line has more than 300000 bytes, over the limit of "
                + "100000 characters (brisk.csvMaxLineChars, or maxLineChars on CsvDataset.builder)"), bad.messages());
        assertTrue(allocated < 16L << 20, allocated + " bytes allocated for a line of " + huge.length());

        Path cells = write("cells.csv", "a,b\n1,2\n" + "1,".repeat(20) + "1\n");
        assertEquals(cells + " line 3: more than 10 cells, over the limit (brisk.csvMaxCells, or maxCells on "
                + "CsvDataset.builder)", badRow(CsvDataset.builder(cells).maxCells(10).build()).getMessage());
        Path wide = write("wide-cell.csv", "a,b\n" + "x".repeat(100_000) + ",2\n");
        assertEquals(wide + " line 2, column 'a' (1): '" + "x".repeat(40) + "...' is not a number",
                badRow(CsvDataset.builder(wide).build()).getMessage());
        Path longLine = write("long-line.csv", "a,b\n" + "1".repeat(50) + ",2\n");
        assertTrue(badRow(CsvDataset.builder(longLine).maxLineChars(20).build()).getMessage()
                .contains("over the limit of 20 characters"));
    }

    /** Filled cells get their indicator feature set, in the order the columns were named, after the others. */
    @Test
    void missingValueIndicatorsFollowTheFeatures() throws IOException {
        Path f = write("gaps.csv", "a,b,c,y\n"
                + "1,,3,0\n"
                + "NA,2,NA,1\n"
                + "4,5,6,0\n");
        CsvDataset ds = CsvDataset.builder(f).label("y").fillMissing(-1f, "NA").indicateMissing("c", "a").build();
        assertEquals(List.of("a", "b", "c", "c_missing", "a_missing"), ds.featureNames());
        List<Sample> rows = ds.toList();
        assertArrayEquals(new float[] {1, -1, 3, 0, 0}, rows.get(0).features().toArray());
        assertArrayEquals(new float[] {-1, 2, -1, 1, 1}, rows.get(1).features().toArray());
        assertArrayEquals(new float[] {4, 5, 6, 0, 0}, rows.get(2).features().toArray());
        assertEquals(1f, rows.get(1).label().get(0));
    }

    @Test
    void aMissingValueIndicatorNeedsAFilledFeatureColumn() throws IOException {
        Path f = write("gaps.csv", "a,b,y\n1,2,0\n");
        String noFill = assertThrows(DataFormatException.class,
                () -> CsvDataset.builder(f).label("y").indicateMissing("a").build()).getMessage();
        assertTrue(noFill.contains("'a'") && noFill.contains("fillMissing"), noFill);
        String label = assertThrows(DataFormatException.class,
                () -> CsvDataset.builder(f).label("y").fillMissing(0f).indicateMissing("y").build()).getMessage();
        assertTrue(label.contains("is the label"), label);
        String absent = assertThrows(DataFormatException.class,
                () -> CsvDataset.builder(f).label("y").fillMissing(0f).indicateMissing("z").build()).getMessage();
        assertTrue(absent.contains("'z'") && absent.contains("not in the header"), absent);
        assertThrows(IllegalArgumentException.class, () -> CsvDataset.builder(f).indicateMissing("a", "a"));
    }
}
