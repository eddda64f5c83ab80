package dev.brisk.cli;

import dev.brisk.data.ColumnType;
import dev.brisk.data.CsvDataset;
import dev.brisk.data.IdxDatasets;
import dev.brisk.data.ImageDirectory;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.NpyReader;
import dev.brisk.data.Permutations;
import dev.brisk.data.PipelineIterator;
import dev.brisk.data.Sample;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The data of {@code brisk train --model}: features and labels read whole into arrays, from a CSV file (its
 * {@code --label} column the labels, numbers or text classes numbered in sorted order, the other columns the
 * features, text ones looked up or hashed by {@code --lookup-column} and {@code --hash-column}, missing cells filled
 * by {@code --fill-value} and marked by {@code --indicate-missing}'s indicator columns),
 * an NPY or IDX features file with its labels file ({@code --label}), or a directory of images with one sub-folder
 * per class (Keras' {@code image_dataset_from_directory}: resized to the model's input, pixels 0 to 255, the files
 * shuffled by the run's seed before the validation rows are taken from the end, as Keras shuffles before its
 * {@code validation_split}).
 *
 * @param x the features, sample axis first
 * @param y the labels, sample axis first
 * @param featureNames the CSV's feature columns in order, or an empty list for NPY and IDX
 * @param notes how a CSV's text became numbers (the label classes, each lookup's vocabulary), lines to print
 */
record UserData(Tensor x, Tensor y, List<String> featureNames, List<String> notes) {
    /** Ids or classes a note lists before it says how many more there are. */
    private static final int LISTED = 20;

    /**
     * @param imageShape the model's input shape {@code (height, width, channels)}, which images are made to fit
     * @param seed the shuffle of an image directory's files
     */
    static UserData load(Path data, String label, Missing missing, List<TextColumnOption> textColumns,
                         Shape imageShape, long seed) throws IOException {
        boolean csv = data.getFileName() != null
                && data.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv");
        if (!textColumns.isEmpty() && !csv) {
            throw new UsageException("--lookup-column and --hash-column apply to CSV data; " + data
                    + " is not a .csv file");
        }
        if (Files.isDirectory(data)) {
            return images(data, label, imageShape, seed);
        }
        if (!Files.isRegularFile(data)) {
            throw new UsageException("--data " + data + ": no such file");
        }
        String name = data.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".csv")) {
            if (label == null) {
                throw new UsageException("--model needs --label COLUMN: the label column of the CSV");
            }
            return csv(data, label, missing, textColumns);
        }
        if (missing.fillValue() != null) {
            throw new UsageException((missing.indicated().isEmpty() ? "--fill-value" : "--indicate-missing")
                    + " applies to CSV data; " + data + " is not a .csv file");
        }
        if (label == null) {
            throw new UsageException("--model needs --label: the label column of a CSV, or the labels file of NPY"
                    + " or IDX data");
        }
        Path labels = Path.of(label);
        if (!Files.isRegularFile(labels)) {
            throw new UsageException("--label " + label + ": with NPY or IDX --data, --label names the labels file,"
                    + " and there is no such file");
        }
        if (name.endsWith(".npy")) {
            Tensor x = NpyReader.read(data);
            Tensor y = NpyReader.read(labels);
            if (x.shape().rank() == 0 || y.shape().rank() == 0 || x.shape().dim(0) != y.shape().dim(0)) {
                throw new IllegalArgumentException(data + " has shape " + x.shape() + " and " + labels + " has shape "
                        + y.shape() + ": one label row per feature row expected");
            }
            return new UserData(x, y, List.of(), List.of());
        }
        // IDX (MNIST's format), recognised by its magic number; the raw values, not scaled.
        InMemoryDataset d = IdxDatasets.load(data, labels, 1f);
        return new UserData(d.features(), d.labels(), List.of(), List.of());
    }

    private static UserData csv(Path data, String label, Missing missing, List<TextColumnOption> textColumns)
            throws IOException {
        CsvDataset.Builder b = CsvDataset.builder(data).label(label, ColumnType.labelsFromFile());
        for (TextColumnOption t : textColumns) {
            b.column(t.column(), t.type());
        }
        if (missing.fillValue() != null) {
            b.fillMissing(missing.fillValue(), missing.markers().toArray(new String[0]));
            b.indicateMissing(missing.indicated().toArray(new String[0]));
        }
        CsvDataset csv = b.build();
        List<String> notes = new ArrayList<>();
        List<String> classes = csv.columnType(label).categories();
        if (!classes.isEmpty()) {
            notes.add("label '" + label + "': " + classes.size() + " text classes, in sorted order: "
                    + listed(classes, 0));
        }
        for (TextColumnOption t : textColumns) {
            if (t.bins() == 0) {
                List<String> tokens = csv.vocabulary(t.column()).tokens();
                notes.add("column '" + t.column() + "': vocabulary of " + tokens.size() + " ids adapted from the file"
                        + " (0 missing, 1 unknown, then the most frequent first): " + listed(tokens, 2));
            }
        }
        int f = csv.featureNames().size();
        float[] x = new float[1024 * f];
        float[] y = new float[1024];
        int n = 0;
        try (PipelineIterator<Sample> it = csv.iterator()) {
            while (it.hasNext()) {
                Sample s = it.next();
                if (n == y.length) {
                    x = java.util.Arrays.copyOf(x, 2 * x.length);
                    y = java.util.Arrays.copyOf(y, 2 * y.length);
                }
                System.arraycopy(s.features().data(), s.features().offset(), x, n * f, f);
                y[n++] = s.label().get(0);
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException(data + " has a header but no rows");
        }
        return new UserData(Tensor.of(java.util.Arrays.copyOf(x, n * f), n, f),
                Tensor.of(java.util.Arrays.copyOf(y, n), n), csv.featureNames(), List.copyOf(notes));
    }

    /** {@code i=name} for the first names from {@code from} on, and how many more there are. */
    private static String listed(List<String> names, int from) {
        StringBuilder sb = new StringBuilder();
        int last = Math.min(names.size(), from + LISTED);
        for (int i = from; i < last; i++) {
            sb.append(i > from ? ", " : "").append(i).append('=').append(names.get(i));
        }
        if (last < names.size()) {
            sb.append(", ... (").append(names.size() - last).append(" more)");
        }
        return sb.toString();
    }

    private static UserData images(Path dir, String label, Shape shape, long seed) throws IOException {
        if (label != null) {
            throw new UsageException("--label: an image directory is labelled by its sub-folders; leave out --label");
        }
        if (shape.rank() != 3 || shape.dim(2) != 1 && shape.dim(2) != 3 && shape.dim(2) != 4) {
            throw new UsageException("--data " + dir + " holds images, but the model's input is " + shape
                    + "; images need (height, width, 1, 3 or 4 channels)");
        }
        if (shape.isOpen()) {
            throw new UsageException("--data " + dir + " holds images, which are resized to the model's input size,"
                    + " but the model's input " + shape + " leaves its height or width open (None); give them in"
                    + " the InputLayer's batch_shape");
        }
        ImageDirectory.ColorMode mode = shape.dim(2) == 1 ? ImageDirectory.ColorMode.GRAYSCALE
                : shape.dim(2) == 3 ? ImageDirectory.ColorMode.RGB : ImageDirectory.ColorMode.RGBA;
        ImageDirectory images = ImageDirectory.of(dir).imageSize(shape.dim(0), shape.dim(1)).colorMode(mode);
        int n = images.size();
        if (n == 0) {
            throw new IllegalArgumentException(dir + " has no PNG or JPEG images in class sub-folders");
        }
        int[] order = Permutations.shuffled(n, seed);
        int per = shape.size();
        float[] x = new float[Math.multiplyExact(n, per)];
        float[] y = new float[n];
        int i = 0;
        try (PipelineIterator<Sample> it = images.pipeline().iterator()) {
            while (it.hasNext()) {
                Sample s = it.next();
                int row = order[i++];
                System.arraycopy(s.features().data(), s.features().offset(), x, row * per, per);
                y[row] = s.label().get(0);
            }
        }
        return new UserData(Tensor.of(x, shape.prepend(n).dims()), Tensor.of(y, n), List.of(), List.of());
    }

    /**
     * How a CSV's missing cells are read: {@code --fill-value} (null: a missing cell is an error), {@code --missing}'s
     * further markers, and {@code --indicate-missing}'s columns, each given an indicator feature.
     *
     * @param fillValue the value a missing cell is read as, or null
     * @param markers cell texts that mean missing besides the empty cell
     * @param indicated the columns that get a {@code <column>_missing} feature
     */
    record Missing(Float fillValue, List<String> markers, List<String> indicated) {
    }

    int size() {
        return x.shape().dim(0);
    }

    /**
     * The features as INT32 ids, for a model whose input takes token ids ({@code Input(dtype="int32")}, an Embedding's
     * input): every value must be a whole number (a CSV's and an NPY file's ids are read as numbers), else the row and
     * feature are named.
     *
     * @param input the model input's name, for the error
     * @return this data with INT32 features of the same shape
     * @throws IllegalArgumentException naming the first value that is no integer id
     */
    UserData withIntegerFeatures(String input) {
        int n = x.size();
        int perRow = n / Math.max(1, x.shape().dim(0));
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            float v = x.get(i);
            if (v != Math.rint(v) || Math.abs(v) > 1 << 24) {
                String feature = featureNames.isEmpty() ? "element " + i % perRow
                        : "feature '" + featureNames.get(i % perRow) + "'";
                throw new IllegalArgumentException("--data row " + (i / perRow + 1) + ", " + feature + ": " + v
                        + " is not a token id; the model's input '" + input + "' is int32, so every feature must be a"
                        + " whole number (at most 2^24, the largest a float reads exactly)");
            }
            ids[i] = (int) v;
        }
        return new UserData(Tensor.ofInts(ids, x.shape().dims()), y, featureNames, notes);
    }
}
