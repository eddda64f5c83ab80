package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * <p>Columns are {@link ColumnType#FLOAT} unless declared. Blank lines are skipped; a cell may be quoted. The
 * header is checked when the dataset is built; each pass then reads the file again, row by row. A row with the
 * wrong number of cells, or a cell that is not a value of its column's type, is a {@link BadRecordException}
 * naming the file, the line and the column: it stops the pass, or {@link Pipeline#ignoreErrors} skips and counts
 * it.
 */
public final class CsvDataset extends Pipeline<Sample> {
    private final Path file;
    private final char delimiter;
    private final List<String> header;
    private final ColumnType[] types;
    private final int labelColumn;
    private final List<String> featureNames;

    private CsvDataset(Path file, char delimiter, List<String> header, ColumnType[] types, int labelColumn) {
        this.file = file;
        this.delimiter = delimiter;
        this.header = header;
        this.types = types;
        this.labelColumn = labelColumn;
        List<String> names = new ArrayList<>();
        for (int c = 0; c < header.size(); c++) {
            if (c != labelColumn && types[c] != ColumnType.IGNORE) {
                names.add(header.get(c));
            }
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
        BufferedReader reader;
        try {
            reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
            reader.readLine(); // the header, checked when built
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
        return new Cursor<>() {
            private long line = 1;
            private boolean done;

            @Override
            public Sample next() {
                while (!done) {
                    String text;
                    try {
                        text = reader.readLine();
                    } catch (IOException e) {
                        close();
                        throw new UncheckedIOException(file + " line " + (line + 1) + ": cannot read: "
                                + e.getMessage(), e);
                    }
                    if (text == null) {
                        close();
                        return null;
                    }
                    line++;
                    if (!text.isBlank()) {
                        return parse(text, line);
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
            cells = CsvLine.split(text, delimiter);
        } catch (IllegalArgumentException e) {
            throw new BadRecordException(file, line, file + " line " + line + ": " + e.getMessage());
        }
        if (cells.size() != header.size()) {
            throw new BadRecordException(file, line, file + " line " + line + ": expected " + header.size()
                    + " columns (as in the header), found " + cells.size());
        }
        float[] features = new float[featureNames.size()];
        float label = 0;
        int f = 0;
        for (int c = 0; c < cells.size(); c++) {
            if (types[c] == ColumnType.IGNORE) {
                continue;
            }
            float v;
            try {
                v = types[c].parse(cells.get(c));
            } catch (IllegalArgumentException e) {
                throw new BadRecordException(file, line, file + " line " + line + ", column '" + header.get(c)
                        + "' (" + (c + 1) + "): " + e.getMessage());
            }
            if (c == labelColumn) {
                label = v;
            } else {
                features[f++] = v;
            }
        }
        Tensor x = Tensor.wrap(features, 0, dev.brisk.tensor.Shape.of(features.length));
        return labelColumn < 0 ? new Sample(x) : new Sample(x, Tensor.scalar(label));
    }

    /** What {@link CsvDataset#builder} collects: the label column, column types and the delimiter. */
    public static final class Builder {
        private final Path file;
        private final Map<String, ColumnType> declared = new LinkedHashMap<>();
        private String label;
        private char delimiter = ',';

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
         * Reads and checks the header.
         *
         * @return the dataset
         * @throws DataFormatException for an empty file, a duplicate column name, a declared column missing from
         *     the header, or no feature column left
         * @throws IOException if the file cannot be read
         */
        public CsvDataset build() throws IOException {
            String first;
            try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                first = r.readLine();
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
                header = CsvLine.split(first, delimiter).stream().map(String::strip).toList();
            } catch (IllegalArgumentException e) {
                throw new DataFormatException(file, file + " line 1 (header): " + e.getMessage());
            }
            for (int i = 0; i < header.size(); i++) {
                if (header.indexOf(header.get(i)) != i) {
                    throw new DataFormatException(file, file + " line 1 (header): column '" + header.get(i)
                            + "' appears twice");
                }
            }
            for (String name : declared.keySet()) {
                if (!header.contains(name)) {
                    throw new DataFormatException(file, file + ": " + (name.equals(label) ? "label " : "")
                            + "column '" + name + "' is not in the header " + header);
                }
            }
            if (label != null && !header.contains(label)) {
                throw new DataFormatException(file, file + ": label column '" + label + "' is not in the header "
                        + header);
            }
            ColumnType[] types = new ColumnType[header.size()];
            for (int c = 0; c < types.length; c++) {
                types[c] = declared.getOrDefault(header.get(c), ColumnType.FLOAT);
            }
            int labelColumn = label == null ? -1 : header.indexOf(label);
            if (labelColumn >= 0 && types[labelColumn] == ColumnType.IGNORE) {
                throw new DataFormatException(file, file + ": the label column '" + label + "' cannot be ignored");
            }
            CsvDataset ds = new CsvDataset(file, delimiter, header, types, labelColumn);
            if (ds.featureNames().isEmpty()) {
                throw new DataFormatException(file, file + ": no feature columns left in " + header);
            }
            return ds;
        }
    }
}
