package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.preprocessing.Hashing;
import dev.brisk.data.preprocessing.Vocabulary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Text feature columns of a CSV looked up (Keras' StringLookup) or hashed (Keras' Hashing), and text labels. */
class CsvTextColumnsTest {
    private static final String CITIES = "size,city,zip,colour\n"
            + "1.5,paris,75001,red\n"
            + "2.0,lyon,69001,blue\n"
            + "0.5, paris ,75002,red\n"
            + "1.0,nice,06000,green\n"
            + "3.0,lyon,69002,blue\n"
            + "2.5,bordeaux,33000,green\n"
            + "4.0,paris,75003,red\n";
    private static final String[] ZIPS = {"75001", "69001", "75002", "06000", "69002", "33000", "75003"};

    @TempDir
    Path tmp;

    private Path write(String text) throws IOException {
        Path p = tmp.resolve("cities.csv");
        Files.writeString(p, text);
        return p;
    }

    @Test
    void anAdaptedLookupColumnIsNumberedAsKerasAdaptNumbersIt() throws IOException {
        CsvDataset ds = CsvDataset.builder(write(CITIES)).label("colour", ColumnType.labelsFromFile())
                .column("city", ColumnType.lookup()).column("zip", ColumnType.IGNORE).build();
        // Keras: counts paris 3, lyon 2, nice 1, bordeaux 1; np.lexsort((tokens, counts)) is bordeaux, nice, lyon,
        // paris and [::-1] reverses it: paris, lyon, nice, bordeaux. Keras' StringLookup(mask_token="") has the same
        // ids; its default (no mask token) has each one less.
        assertEquals(List.of("", "[UNK]", "paris", "lyon", "nice", "bordeaux"), ds.vocabulary("city").tokens());
        assertEquals(List.of("size", "city"), ds.featureNames());
        List<Sample> rows = ds.toList();
        float[] city = new float[rows.size()];
        float[] colour = new float[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            city[i] = rows.get(i).features().get(1);
            colour[i] = rows.get(i).label().get(0);
        }
        assertArrayEquals(new float[] {2, 3, 2, 4, 3, 5, 2}, city);
        // Text labels: the classes sorted, blue 0, green 1, red 2.
        assertEquals(List.of("blue", "green", "red"), ds.columnType("colour").categories());
        assertArrayEquals(new float[] {2, 0, 2, 1, 0, 1, 2}, colour);
    }

    @Test
    void aHashedColumnHasTheBinsOfKerasHashing() throws IOException {
        CsvDataset ds = CsvDataset.builder(write(CITIES)).label("colour", ColumnType.labelsFromFile())
                .column("city", ColumnType.IGNORE).column("zip", ColumnType.hashed(8)).build();
        List<Sample> rows = ds.toList();
        Hashing hashing = new Hashing(8);
        int[] bins = new int[ZIPS.length];
        // The cell's text is hashed (06000 keeps its leading zero, as in a tf.string column).
        for (int i = 0; i < ZIPS.length; i++) {
            bins[i] = hashing.bin(ZIPS[i]);
            assertEquals(bins[i], rows.get(i).features().get(1), ZIPS[i]);
        }
        // One-hot: one feature per bin, named zip[i], 1 at the value's bin.
        CsvDataset oneHot = CsvDataset.builder(write(CITIES)).label("colour", ColumnType.labelsFromFile())
                .column("city", ColumnType.IGNORE).column("zip", ColumnType.hashed(8).oneHot()).build();
        assertEquals(9, oneHot.featureNames().size());
        assertEquals("zip[7]", oneHot.featureNames().get(8));
        float[] first = oneHot.toList().get(0).features().toArray();
        float[] expected = new float[9];
        expected[0] = 1.5f;
        expected[1 + bins[0]] = 1;
        assertArrayEquals(expected, first);
    }

    @Test
    void aGivenVocabularyReadsUnknownValuesAsOovNeverZero() throws IOException {
        Path f = write(CITIES);
        CsvDataset ds = CsvDataset.builder(f).label("colour", ColumnType.labelsFromFile())
                .column("city", ColumnType.lookup(Vocabulary.of(List.of("lyon", "paris")))).column("zip",
                        ColumnType.IGNORE).build();
        List<Sample> rows = ds.toList();
        assertEquals(3f, rows.get(0).features().get(1));  // paris
        assertEquals(2f, rows.get(1).features().get(1));  // lyon
        assertEquals(Vocabulary.OOV, (int) rows.get(3).features().get(1)); // nice
        // No out-of-vocabulary ids: an unknown value is a bad record naming the file, line and column.
        CsvDataset strict = CsvDataset.builder(f).label("colour", ColumnType.labelsFromFile())
                .column("city", ColumnType.lookup(Vocabulary.of(List.of("lyon", "paris"), 0)))
                .column("zip", ColumnType.IGNORE).build();
        BadRecordException e = assertThrows(BadRecordException.class, strict::toList);
        assertEquals(f + " line 5, column 'city' (2): token 'nice' is not in the vocabulary and there are no"
                + " out-of-vocabulary ids (num_oov_indices=0)", e.getMessage());
    }

    @Test
    void aMissingTextCellIsRefusedOrIsTheMaskWhenFilled() throws IOException {
        Path f = write("size,city,zip,colour\n1.5,paris,75001,red\n2.0,,NA,blue\n0.5,lyon,75002,red\n");
        CsvDataset refused = CsvDataset.builder(f).label("colour", ColumnType.labelsFromFile())
                .column("city", ColumnType.lookup()).column("zip", ColumnType.hashed(8)).build();
        assertEquals(f + " line 3, column 'city' (2): empty value",
                assertThrows(BadRecordException.class, refused::toList).getMessage());
        // The refused row is not counted by adapt either: the vocabulary is of the rows that are read.
        assertEquals(List.of("", "[UNK]", "paris", "lyon"), refused.vocabulary("city").tokens());
        CsvDataset filled = CsvDataset.builder(f).label("colour", ColumnType.labelsFromFile())
                .column("city", ColumnType.lookup()).column("zip", ColumnType.hashed(8))
                .fillMissing(-1, "NA").indicateMissing("city", "zip").build();
        assertEquals(List.of("size", "city", "zip", "city_missing", "zip_missing"), filled.featureNames());
        List<Sample> rows = filled.toList();
        // A gap is id 0 (padding, Keras' mask token) and bin 0 (Hashing(mask_value="")), never the fill value.
        assertArrayEquals(new float[] {2f, 0, 0, 1, 1}, rows.get(1).features().toArray());
        Hashing masked = new Hashing(8).maskValue("");
        assertEquals(masked.bin("75001"), rows.get(0).features().get(2));
        assertEquals(masked.bin("75002"), rows.get(2).features().get(2));
        assertTrue(masked.bin("75001") > 0);
    }

    @Test
    void adaptCountsOnlyTheRowsThatAreRead() throws IOException {
        Path f = write("size,city\n1,lyon\n2,lyon\n3,paris\nabc,paris\n4\n");
        CsvDataset ds = CsvDataset.builder(f).column("city", ColumnType.lookup()).build();
        // The two refused rows (a bad number, a missing cell) would have made paris the most frequent.
        assertEquals(List.of("", "[UNK]", "lyon", "paris"), ds.vocabulary("city").tokens());
        assertEquals(3, ds.ignoreErrors().toList().size());
    }

    @Test
    void numericLabelsFromTheFileStayNumbers() throws IOException {
        Path f = write("x,y\n1,0.5\n2,3\n");
        CsvDataset ds = CsvDataset.builder(f).label("y", ColumnType.labelsFromFile()).build();
        assertEquals(ColumnType.FLOAT, ds.columnType("y"));
        assertEquals(3f, ds.toList().get(1).label().get(0));
        // A typo in a column of numbers is not taken for a class.
        Path typo = write("x,y\n1,0.5\n2,3\n3,3..5\n");
        DataFormatException e = assertThrows(DataFormatException.class,
                () -> CsvDataset.builder(typo).label("y", ColumnType.labelsFromFile()).build());
        assertEquals(typo + ": label column 'y' holds numbers (line 2: '0.5') and text (line 4: '3..5'); declare its"
                + " classes with ColumnType.category or correct the file", e.getMessage());
    }

    @Test
    void textTypesAreRefusedWhereTheyDoNotFit() throws IOException {
        Path f = write(CITIES);
        DataFormatException label = assertThrows(DataFormatException.class, () -> CsvDataset.builder(f)
                .label("city", ColumnType.lookup()).column("zip", ColumnType.IGNORE)
                .column("colour", ColumnType.IGNORE).build());
        assertTrue(label.getMessage().contains("the label column 'city' cannot be a lookup[adapted] column"),
                label.getMessage());
        assertThrows(IllegalStateException.class, () -> ColumnType.INT.oneHot());
        assertThrows(IllegalArgumentException.class, () -> ColumnType.hashed(0));
        DataFormatException oneBin = assertThrows(DataFormatException.class, () -> CsvDataset.builder(f)
                .label("colour", ColumnType.labelsFromFile()).column("city", ColumnType.IGNORE)
                .column("zip", ColumnType.hashed(1)).fillMissing(0).build());
        assertTrue(oneBin.getMessage().contains("needs at least 2 bins"), oneBin.getMessage());
    }
}
