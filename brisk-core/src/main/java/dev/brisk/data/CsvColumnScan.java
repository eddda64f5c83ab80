package dev.brisk.data;

import dev.brisk.data.preprocessing.Vocabulary;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The one pass over a CSV file that {@link CsvDataset.Builder#build} makes before training when a column's values
 * must be known first: a {@link ColumnType#lookup()} column's vocabulary (Keras' {@code adapt}) and a
 * {@link ColumnType#labelsFromFile()} column's classes. It counts only the rows a reading pass would give: a row the
 * reading pass refuses as a bad record (a wrong number of cells, a bad number, an empty cell that is not filled) is
 * left out here and reported, naming its line and column, when the dataset is read.
 */
final class CsvColumnScan {
    private final Map<Integer, Map<String, Long>> counts = new HashMap<>();
    private final TreeSet<String> labels = new TreeSet<>(CsvColumnScan::byCodePoint);
    /** The first label that is a number and the first that is not, as "line N: 'cell'", or null. */
    private String firstNumber;
    private String firstText;

    private CsvColumnScan() {
    }

    /**
     * Reads the file once.
     *
     * @param missing whether a feature cell counts as missing (filled), or null when missing cells are bad
     */
    static CsvColumnScan of(Path file, Charset charset, char delimiter, int lineLimit, int cellLimit,
                            ColumnType[] types, int labelColumn, Predicate<String> missing) throws IOException {
        CsvColumnScan scan = new CsvColumnScan();
        for (int c = 0; c < types.length; c++) {
            if (types[c].adapts()) {
                scan.counts.put(c, new HashMap<>());
            }
        }
        List<Integer> heldColumns = new ArrayList<>();
        List<String> held = new ArrayList<>();
        try (CsvLineReader reader = new CsvLineReader(Files.newInputStream(file), file, charset, lineLimit)) {
            while (true) {
                String text;
                try {
                    text = reader.next();
                } catch (BadRecordException e) {
                    continue; // refused again, and named, when the dataset is read
                }
                if (text == null) {
                    break;
                }
                if (reader.line() == 1 || text.isBlank()) {
                    continue;
                }
                List<String> cells;
                try {
                    cells = CsvLine.split(text, delimiter, cellLimit);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (cells.size() != types.length) {
                    continue;
                }
                heldColumns.clear();
                held.clear();
                if (readable(cells, types, labelColumn, missing, heldColumns, held)) {
                    scan.add(heldColumns, held, labelColumn, reader.line());
                }
            }
        }
        return scan;
    }

    /** Whether the reading pass would give this row; collects the cells to count. */
    private static boolean readable(List<String> cells, ColumnType[] types, int labelColumn, Predicate<String> missing,
                                    List<Integer> heldColumns, List<String> held) {
        for (int c = 0; c < cells.size(); c++) {
            ColumnType t = types[c];
            String cell = cells.get(c).strip();
            if (t == ColumnType.IGNORE) {
                continue;
            }
            if (c != labelColumn && missing != null && missing.test(cell)) {
                continue; // filled, and not a value of a lookup column (Keras does not count its mask token)
            }
            if (cell.isEmpty()) {
                return false;
            }
            try {
                if (t.adapts() || t.labelsFromTheFile()) {
                    heldColumns.add(c);
                    held.add(cell);
                } else if (t.vocabulary() != null) {
                    t.vocabulary().id(cell);
                } else if (!t.isText()) {
                    t.parse(cell);
                }
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return true;
    }

    private void add(List<Integer> columns, List<String> cells, int labelColumn, long line) {
        for (int i = 0; i < columns.size(); i++) {
            int c = columns.get(i);
            String cell = cells.get(i);
            if (c == labelColumn) {
                labels.add(cell);
                if (firstNumber == null || firstText == null) {
                    String where = "line " + line + ": '" + CsvLine.shorten(cell) + "'";
                    try {
                        ColumnType.FLOAT.parse(cell);
                        firstNumber = firstNumber == null ? where : firstNumber;
                    } catch (IllegalArgumentException e) {
                        firstText = firstText == null ? where : firstText;
                    }
                }
            } else {
                counts.get(c).merge(cell, 1L, Long::sum);
            }
        }
    }

    /** The vocabulary adapted to column {@code c}'s values, as Keras' {@code adapt} orders them. */
    Vocabulary vocabulary(int c) {
        return Vocabulary.fromCounts(counts.get(c), 0, 1);
    }

    /**
     * The label column's type: FLOAT when every label is a number, its texts as sorted categories when none is; a
     * column of both is refused, since a typo in a column of numbers must not turn it into classes.
     */
    ColumnType labelType(Path file, String label) throws DataFormatException {
        if (firstText == null) {
            return ColumnType.FLOAT;
        }
        if (firstNumber != null) {
            throw new DataFormatException(file, file + ": label column '" + CsvLine.shorten(label) + "' holds numbers ("
                    + firstNumber + ") and text (" + firstText + "); declare its classes with ColumnType.category"
                    + " or correct the file");
        }
        return ColumnType.category(labels.toArray(new String[0]));
    }

    /** Code point order, which is UTF-8 byte order (String.compareTo is not, above U+FFFF). */
    private static int byCodePoint(String a, String b) {
        return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }
}
