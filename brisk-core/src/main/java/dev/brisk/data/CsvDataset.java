package dev.brisk.data;

import dev.brisk.config.Settings;
import dev.brisk.data.preprocessing.Vocabulary;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CSV file with a header line, streamed as samples: each row's typed columns become a float32 feature vector
 * {@code (F,)} in header order, and the label column, if any, a scalar label.
 *
 * <pre>{@code
 * CsvDataset iris = CsvDataset.builder(Path.of("iris.csv"))
 *         .label("species", ColumnType.category("setosa", "versicolor", "virginica"))
 *         .column("id", ColumnType.IGNORE)
 *         .build();
 * Pipeline<Batch> train = iris.shuffle(150, 1).batch(16);
 * }</pre>
 *
 * <p>Columns are {@link ColumnType#FLOAT} unless declared; a text column is looked up ({@link ColumnType#lookup()},
 * Keras' {@code StringLookup}) or hashed ({@link ColumnType#hashed}, Keras' {@code Hashing}) into its index or
 * one-hot features, and a label of text classes is {@link ColumnType#labelsFromFile()}. Blank lines are skipped; a cell may be quoted. The
 * header is checked when the dataset is built; each pass then reads the file again, row by row. A row with the
 * wrong number of cells, a cell that is not a value of its column's type, bytes that are not valid in the
 * file's charset (UTF-8 unless {@link Builder#charset set}), or a line over the limits on its length and cell
 * count ({@link Builder#maxLineChars}, {@link Builder#maxCells}) is a {@link BadRecordException} naming the file
 * and the line (and the column or byte offset): it stops the pass, or {@link Pipeline#ignoreErrors} skips and
 * counts it. Messages quote at most the first 40 characters of a cell.
 */
public final class CsvDataset extends Pipeline<Sample> {
    private final Path file;
    private final char delimiter;
    private final Charset charset;
    private final int maxLineChars;
    private final int maxCells;
    private final List<String> header;
    private final ColumnType[] types;
    private final int labelColumn;
    private final List<String> featureNames;
    /** The value of a missing feature cell, or null when a missing cell is a bad record. */
    private final Float fillValue;
    private final java.util.Set<String> missingMarkers;
    /** Per header column, the feature index of its missing-value indicator, or -1 when it has none. */
    private final int[] indicatorSlot;
    /** Per header column, its lookup or hashing when it is a text column, else null. */
    private final TextColumn[] text;
    /** Per header column, the index of its first feature (its only one unless it is one-hot). */
    private final int[] start;

    private CsvDataset(Path file, char delimiter, Charset charset, int maxLineChars, int maxCells,
                       List<String> header, ColumnType[] types, int labelColumn, Float fillValue,
                       java.util.Set<String> missingMarkers, List<Integer> indicated, TextColumn[] text) {
        this.fillValue = fillValue;
        this.missingMarkers = missingMarkers;
        this.file = file;
        this.delimiter = delimiter;
        this.charset = charset;
        this.maxLineChars = maxLineChars;
        this.maxCells = maxCells;
        this.header = header;
        this.types = types;
        this.labelColumn = labelColumn;
        this.text = text;
        this.start = new int[header.size()];
        List<String> names = new ArrayList<>();
        for (int c = 0; c < header.size(); c++) {
            start[c] = names.size();
            if (c != labelColumn && types[c] != ColumnType.IGNORE) {
                names.addAll(text[c] != null ? text[c].featureNames() : List.of(header.get(c)));
            }
        }
        this.indicatorSlot = new int[header.size()];
        java.util.Arrays.fill(indicatorSlot, -1);
        for (int c : indicated) {
            indicatorSlot[c] = names.size();
            names.add(header.get(c) + "_missing");
        }
        this.featureNames = List.copyOf(names);
    }

    /**
     * Starts describing the CSV file {@code file}.
     *
     * @param file the CSV file, whose first line is the header
     * @return a builder; call {@link Builder#build()} when the columns are described
     */
    public static Builder builder(Path file) {
        return new Builder(file);
    }

    /**
     * The columns that make up the feature vector, in its order.
     *
     * @return the feature column names
     */
    public List<String> featureNames() {
        return featureNames;
    }

    /**
     * The type column {@code name} is read as, resolved when the dataset was built: a
     * {@link ColumnType#labelsFromFile()} label is {@link ColumnType#FLOAT} or the {@link ColumnType#category
     * categories} found in the file, whose {@link ColumnType#categories()} give the class of each index.
     *
     * @param name a column of the header
     * @return its type
     * @throws IllegalArgumentException for a name that is not in the header
     */
    public ColumnType columnType(String name) {
        int c = header.indexOf(name);
        if (c < 0) {
            throw new IllegalArgumentException("column '" + CsvLine.shorten(name) + "' is not in the header of "
                    + file);
        }
        return types[c];
    }

    /**
     * The vocabulary a {@link ColumnType#lookup() lookup} column is read with: the one given, or the one adapted from
     * the file when the dataset was built (Keras' {@code get_vocabulary()} is its {@link Vocabulary#tokens()}).
     *
     * @param name a lookup column of the header
     * @return its vocabulary
     * @throws IllegalArgumentException for a name that is not a lookup column
     */
    public Vocabulary vocabulary(String name) {
        int c = header.indexOf(name);
        if (c < 0 || text[c] == null || text[c].vocabulary() == null) {
            throw new IllegalArgumentException("column '" + CsvLine.shorten(name) + "' of " + file
                    + " is not a lookup column");
        }
        return text[c].vocabulary();
    }

    /**
     * The header's column names.
     *
     * @return the column names, in file order
     */
    public List<String> header() {
        return header;
    }

    @Override
    public long cardinality() {
        return UNKNOWN;
    }

    @Override
    Cursor<Sample> open(Autotuner tuner) {
        CsvLineReader reader;
        try {
            reader = new CsvLineReader(Files.newInputStream(file), file, charset, maxLineChars);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
        return new Cursor<>() {
            private boolean done;

            @Override
            public Sample next() {
                while (!done) {
                    String text;
                    try {
                        text = reader.next();
                        if (reader.line() == 1 && text != null) {
                            continue; // the header, checked when built
                        }
                    } catch (BadRecordException e) {
                        if (reader.line() == 1) {
                            continue; // the header, which read cleanly when built: a file changed since
                        }
                        throw e;
                    } catch (IOException e) {
                        close();
                        throw new UncheckedIOException(file + " line " + (reader.line() + 1) + ": cannot read: "
                                + e.getMessage(), e);
                    }
                    if (text == null) {
                        close();
                        return null;
                    }
                    if (!text.isBlank()) {
                        return parse(text, reader.line());
                    }
                }
                return null;
            }

            @Override
            public void close() {
                done = true;
                try {
                    reader.close();
                } catch (IOException e) {
                    // nothing was written; a failed close of a reader loses nothing
                }
            }
        };
    }

    private Sample parse(String text, long line) {
        List<String> cells;
        try {
            cells = CsvLine.split(text, delimiter, maxCells);
        } catch (IllegalArgumentException e) {
            throw new BadRecordException(file, line, file + " line " + line + ": " + e.getMessage());
        }
        if (cells.size() != header.size()) {
            throw new BadRecordException(file, line, file + " line " + line + ": expected " + header.size()
                    + " columns (as in the header), found " + cells.size());
        }
        float[] features = new float[featureNames.size()];
        float label = 0;
        for (int c = 0; c < cells.size(); c++) {
            if (types[c] == ColumnType.IGNORE) {
                continue;
            }
            float v;
            try {
                boolean missing = c != labelColumn && fillValue != null && isMissing(cells.get(c));
                if (missing && indicatorSlot[c] >= 0) {
                    features[indicatorSlot[c]] = 1f;
                }
                if (this.text[c] != null) {
                    if (!missing && cells.get(c).isBlank()) {
                        throw new IllegalArgumentException("empty value");
                    }
                    this.text[c].write(cells.get(c), missing, features, start[c]);
                    continue;
                }
                v = missing ? fillValue : types[c].parse(cells.get(c));
            } catch (IllegalArgumentException e) {
                throw new BadRecordException(file, line, file + " line " + line + ", column '" + header.get(c)
                        + "' (" + (c + 1) + "): " + e.getMessage());
            }
            if (c == labelColumn) {
                label = v;
            } else {
                features[start[c]] = v;
            }
        }
        Tensor x = Tensor.wrap(features, 0, dev.brisk.tensor.Shape.of(features.length));
        return labelColumn < 0 ? new Sample(x) : new Sample(x, Tensor.scalar(label));
    }

    /** An empty cell, or one of the missing-value markers (surrounding spaces ignored). */
    private boolean isMissing(String cell) {
        String s = cell.strip();
        return s.isEmpty() || missingMarkers.contains(s);
    }

    /**
     * What {@link CsvDataset#builder} collects: the label column, column types, the delimiter, the charset and the
     * limits on a line.
     */
    public static final class Builder {
        private final Path file;
        private final Map<String, ColumnType> declared = new LinkedHashMap<>();
        private String label;
        private char delimiter = ',';
        private Charset charset = StandardCharsets.UTF_8;
        private int maxLineChars;
        private int maxCells;
        private Float fillValue;
        private java.util.Set<String> missingMarkers = java.util.Set.of();
        private final List<String> indicated = new ArrayList<>();

        private Builder(Path file) {
            this.file = file;
        }

        /**
         * The column holding the label (default type {@link ColumnType#FLOAT}); without one, no labels.
         *
         * @param column the label column's name in the header
         * @return this builder
         */
        public Builder label(String column) {
            this.label = column;
            return this;
        }

        /**
         * The label column and its type (for example {@link ColumnType#category}).
         *
         * @param column the label column's name in the header
         * @param type how its cells are read
         * @return this builder
         */
        public Builder label(String column, ColumnType type) {
            this.label = column;
            return column(column, type);
        }

        /**
         * Declares the type of a column.
         *
         * @param name the column's name in the header
         * @param type how its cells are read
         * @return this builder
         */
        public Builder column(String name, ColumnType type) {
            declared.put(name, type);
            return this;
        }

        /**
         * Reads a missing feature cell as {@code value} instead of refusing its row (the {@code na_value} and
         * column defaults of Keras' and tf.data's CSV readers): an empty cell, or one that is exactly one of
         * {@code markers} (for example {@code "NA"}, {@code "?"}). A missing label is still a bad record: a
         * sample without a target cannot be trained on. Without this option a missing cell is a bad record.
         *
         * @param value the value of a missing feature, e.g. 0 or a column mean computed beforehand
         * @param markers cell texts that mean missing, besides the empty cell
         * @return this builder
         */
        public Builder fillMissing(float value, String... markers) {
            this.fillValue = value;
            this.missingMarkers = java.util.Set.of(markers);
            return this;
        }

        /**
         * Adds a missing-value indicator feature for each of {@code columns}: {@code <column>_missing}, 1 where the
         * row's cell was missing (and filled with {@link #fillMissing}'s value), else 0, appended after the other
         * features in the order given. This is scikit-learn's {@code MissingIndicator} / {@code add_indicator}
         * (Keras' preprocessing has only the fill value, tf.data's {@code na_value}), so a model can tell a filled
         * value from a real one. The columns are named because a streamed file is not read ahead to find which
         * have gaps.
         *
         * @param columns feature columns of the header
         * @return this builder
         */
        public Builder indicateMissing(String... columns) {
            for (String c : columns) {
                if (indicated.contains(c)) {
                    throw new IllegalArgumentException("indicateMissing: column '" + c + "' is named twice");
                }
                indicated.add(c);
            }
            return this;
        }

        /**
         * The cell separator (default ',').
         *
         * @param c the separator character
         * @return this builder
         */
        public Builder delimiter(char c) {
            if (c == '"' || c == '\n' || c == '\r') {
                throw new IllegalArgumentException("a quote or line break cannot separate cells");
            }
            this.delimiter = c;
            return this;
        }

        /**
         * The file's character encoding (default UTF-8). A byte sequence the charset cannot decode makes its line a
         * bad record naming the line and the byte offset.
         *
         * @param cs the charset of the file
         * @return this builder
         * @throws IllegalArgumentException for a charset whose line breaks are not the ASCII bytes (UTF-16, UTF-32)
         */
        public Builder charset(Charset cs) {
            CsvLineReader.requireAsciiLineBreaks(cs);
            this.charset = cs;
            return this;
        }

        /**
         * The longest line read, in characters (default {@code brisk.csvMaxLineChars}, 2^22): a longer row is a bad
         * record, skipped without being kept in memory; a longer header is an error.
         *
         * @param chars the limit, at least 1
         * @return this builder
         */
        public Builder maxLineChars(int chars) {
            if (chars < 1) {
                throw new IllegalArgumentException("maxLineChars must be positive, got " + chars);
            }
            this.maxLineChars = chars;
            return this;
        }

        /**
         * The most cells a line may have (default {@code brisk.csvMaxCells}, 2^20): a row with more is a bad record,
         * a header with more an error.
         *
         * @param cells the limit, at least 1
         * @return this builder
         */
        public Builder maxCells(int cells) {
            if (cells < 1) {
                throw new IllegalArgumentException("maxCells must be positive, got " + cells);
            }
            this.maxCells = cells;
            return this;
        }

        /**
         * Reads and checks the header, and, when a {@link ColumnType#lookup()} column is adapted or a label's classes
         * come from the file ({@link ColumnType#labelsFromFile()}), reads the rows once to find them.
         *
         * @return the dataset
         * @throws DataFormatException for an empty file, a duplicate column name, a declared column missing from
         *     the header, no feature column left, a header that cannot be decoded or is over the limits, a lookup or
         *     hashed label column, a label column from the file that holds both numbers and text
         * @throws IOException if the file cannot be read
         */
        public CsvDataset build() throws IOException {
            int lineLimit = maxLineChars > 0 ? maxLineChars : Settings.csvMaxLineChars();
            int cellLimit = maxCells > 0 ? maxCells : Settings.csvMaxCells();
            String first;
            try (CsvLineReader r = new CsvLineReader(Files.newInputStream(file), file, charset, lineLimit)) {
                first = r.next();
            } catch (BadRecordException e) {
                throw new DataFormatException(file, e.getMessage() + " (in the header)");
            }
            if (first == null || first.isBlank()) {
                throw new DataFormatException(file, file + ": no header line (the first line must name the "
                        + "columns)");
            }
            if (first.startsWith("\uFEFF")) {
                first = first.substring(1);
            }
            List<String> header;
            try {
                header = CsvLine.split(first, delimiter, cellLimit).stream().map(String::strip).toList();
            } catch (IllegalArgumentException e) {
                throw new DataFormatException(file, file + " line 1 (header): " + e.getMessage());
            }
            // One pass with a map: a header of 100,000 columns is checked in linear time.
            Map<String, Integer> columns = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                if (columns.putIfAbsent(header.get(i), i) != null) {
                    throw new DataFormatException(file, file + " line 1 (header): column '"
                            + CsvLine.shorten(header.get(i)) + "' appears twice");
                }
            }
            for (String name : declared.keySet()) {
                if (!columns.containsKey(name)) {
                    throw new DataFormatException(file, file + ": " + (name.equals(label) ? "label " : "")
                            + "column '" + CsvLine.shorten(name) + "' is not in the header " + shown(header));
                }
            }
            if (label != null && !columns.containsKey(label)) {
                throw new DataFormatException(file, file + ": label column '" + CsvLine.shorten(label)
                        + "' is not in the header " + shown(header));
            }
            ColumnType[] types = new ColumnType[header.size()];
            for (int c = 0; c < types.length; c++) {
                types[c] = declared.getOrDefault(header.get(c), ColumnType.FLOAT);
            }
            int labelColumn = label == null ? -1 : columns.get(label);
            if (labelColumn >= 0 && types[labelColumn] == ColumnType.IGNORE) {
                throw new DataFormatException(file, file + ": the label column '" + label + "' cannot be ignored");
            }
            if (labelColumn >= 0 && types[labelColumn].isText()) {
                throw new DataFormatException(file, file + ": the label column '" + label + "' cannot be a "
                        + types[labelColumn] + " column; text labels are ColumnType.labelsFromFile() or category");
            }
            for (int c = 0; c < types.length; c++) {
                if (types[c].labelsFromTheFile() && c != labelColumn) {
                    throw new DataFormatException(file, file + ": column '" + CsvLine.shorten(header.get(c))
                            + "' is labelsFromFile() but is not the label column");
                }
            }
            List<Integer> indicators = new ArrayList<>();
            for (String name : indicated) {
                Integer c = columns.get(name);
                String why = c == null ? "is not in the header " + shown(header)
                        : c == labelColumn ? "is the label (a missing label is a bad record)"
                        : types[c] == ColumnType.IGNORE ? "is ignored" : fillValue == null
                        ? "cannot be missing: without fillMissing a missing cell is a bad record" : null;
                if (why != null) {
                    throw new DataFormatException(file, file + ": missing-value indicator for column '"
                            + CsvLine.shorten(name) + "': the column " + why);
                }
                indicators.add(c);
            }
            // The one pass over the file, if a column needs it, after every check that needs none.
            TextColumn[] text = textColumns(header, types, labelColumn, lineLimit, cellLimit);
            CsvDataset ds = new CsvDataset(file, delimiter, charset, lineLimit, cellLimit, header, types,
                    labelColumn, fillValue, missingMarkers, indicators, text);
            if (ds.featureNames().isEmpty()) {
                throw new DataFormatException(file, file + ": no feature columns left in " + shown(header));
            }
            return ds;
        }

        /**
         * Resolves the text columns: a lookup column without a vocabulary and a label whose classes come from the file
         * take one pass over the file first ({@link CsvColumnScan}); {@code types} gets the label's resolved type.
         */
        private TextColumn[] textColumns(List<String> header, ColumnType[] types, int labelColumn, int lineLimit,
                                         int cellLimit) throws IOException {
            boolean scan = false;
            for (ColumnType t : types) {
                scan |= t.adapts() || t.labelsFromTheFile();
            }
            java.util.Set<String> markers = missingMarkers;
            CsvColumnScan values = !scan ? null : CsvColumnScan.of(file, charset, delimiter, lineLimit, cellLimit,
                    types, labelColumn, fillValue == null ? null : s -> s.isEmpty() || markers.contains(s));
            if (labelColumn >= 0 && types[labelColumn].labelsFromTheFile()) {
                types[labelColumn] = values.labelType(file, label);
            }
            TextColumn[] text = new TextColumn[types.length];
            for (int c = 0; c < types.length; c++) {
                if (types[c].isText()) {
                    try {
                        text[c] = new TextColumn(header.get(c), types[c], types[c].adapts() ? values.vocabulary(c)
                                : null, fillValue != null);
                    } catch (IllegalArgumentException e) {
                        throw new DataFormatException(file, file + ": " + e.getMessage());
                    }
                }
            }
            return text;
        }

        /** The header for a message: its first names, each shortened, and how many more there are. */
        private static String shown(List<String> header) {
            int shown = Math.min(header.size(), 20);
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < shown; i++) {
                sb.append(i > 0 ? ", " : "").append(CsvLine.shorten(header.get(i)));
            }
            if (shown < header.size()) {
                sb.append(", ... (").append(header.size() - shown).append(" more)");
            }
            return sb.append(']').toString();
        }
    }
}
