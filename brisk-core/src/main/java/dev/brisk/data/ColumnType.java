package dev.brisk.data;

import dev.brisk.data.preprocessing.Vocabulary;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The type of a CSV column ({@link CsvDataset}): how a cell becomes a float32 value, and what counts as a bad one.
 *
 * <p>Besides numbers and fixed categories, a feature column may hold text that becomes numbers as Keras' preprocessing
 * layers make them on a tf.data CSV: {@link #lookup()} (Keras' {@code StringLookup}, its vocabulary given or adapted
 * from the file) and {@link #hashed} (Keras' {@code Hashing}). Such a column gives its index as one feature, or with
 * {@link #oneHot()} its one-hot encoding as several ({@code CategoryEncoding(output_mode="one_hot")}). A label column
 * whose classes are whatever texts the file holds is {@link #labelsFromFile()}.
 */
public final class ColumnType {
    /** A number (decimal or exponent notation, or nan / inf); the default. */
    public static final ColumnType FLOAT = new ColumnType("float", null);
    /** An integer that float32 holds exactly (at most 2^24 in magnitude). */
    public static final ColumnType INT = new ColumnType("int", null);
    /** A column that is read but not used. */
    public static final ColumnType IGNORE = new ColumnType("ignore", null);
    /** The kind of the text types; numbers and categories are read by {@link #parse}. */
    private static final String LOOKUP = "lookup";
    private static final String HASHED = "hashed";
    private static final String LABELS = "labels from the file";

    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern SPECIAL = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);
    private static final long EXACT_INT = 1L << 24;

    private final String name;
    private final List<String> categories;
    private final Map<String, Integer> index;
    /** A lookup column's given vocabulary, or null when it is adapted from the file. */
    private final Vocabulary vocabulary;
    /** A hashed column's number of bins, else 0. */
    private final int bins;
    /** Whether a lookup or hashed column is one-hot encoded rather than read as its index. */
    private final boolean oneHot;

    private ColumnType(String name, List<String> categories) {
        this(name, categories, null, 0, false);
    }

    private ColumnType(String name, List<String> categories, Vocabulary vocabulary, int bins, boolean oneHot) {
        this.vocabulary = vocabulary;
        this.bins = bins;
        this.oneHot = oneHot;
        this.name = name;
        this.categories = categories;
        this.index = new HashMap<>();
        if (categories != null) {
            for (int i = 0; i < categories.size(); i++) {
                if (index.put(categories.get(i), i) != null) {
                    throw new IllegalArgumentException("category '" + categories.get(i) + "' is listed twice");
                }
            }
        }
    }

    /**
     * Text categories, each read as its index in {@code values} (for class labels).
     *
     * @param values the category names; the first is read as 0
     * @return the column type
     */
    public static ColumnType category(String... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("a category column needs at least one category");
        }
        return new ColumnType("category", List.of(values));
    }

    /**
     * A text feature column looked up in a vocabulary adapted from the file (Keras' {@code StringLookup} after
     * {@code adapt}): when the dataset is built, one pass over the rows it would read counts the column's values,
     * and the vocabulary orders them as Keras does ({@link Vocabulary#fromCounts}: the most frequent first). The
     * feature is the value's id: 0 is a missing cell (with {@link CsvDataset.Builder#fillMissing}), 1 is
     * out-of-vocabulary, the values follow from 2. The vocabulary covers every row of the file, validation rows
     * included; to adapt on the training rows only, adapt a {@link Vocabulary} yourself and use {@link #lookup(
     * Vocabulary)}.
     *
     * @return the column type
     */
    public static ColumnType lookup() {
        return new ColumnType(LOOKUP, null, null, 0, false);
    }

    /**
     * A text feature column looked up in {@code vocabulary} (Keras' {@code StringLookup(vocabulary=...)}): a value
     * outside it reads as an out-of-vocabulary id, or, for a vocabulary without any, is a bad record naming the line
     * and column; never a silent 0.
     *
     * @param vocabulary the vocabulary
     * @return the column type
     */
    public static ColumnType lookup(Vocabulary vocabulary) {
        return new ColumnType(LOOKUP, null, java.util.Objects.requireNonNull(vocabulary, "vocabulary"), 0, false);
    }

    /**
     * A text feature column hashed into {@code numBins} bins by Keras' {@code Hashing(num_bins)} (FarmHash
     * Fingerprint64 of the UTF-8 cell, unsigned, modulo the bins). With {@link CsvDataset.Builder#fillMissing} a
     * missing cell is Keras' mask value {@code ""}: bin 0 is then the missing cells' alone and the values hash into
     * the other {@code numBins - 1} ({@code Hashing(num_bins, mask_value="")}), so a gap never shares a bin with a
     * value.
     *
     * @param numBins the number of bins, at least 1 (at least 2 with missing cells filled)
     * @return the column type
     */
    public static ColumnType hashed(int numBins) {
        if (numBins < 1) {
            throw new IllegalArgumentException("a hashed column needs at least 1 bin, got " + numBins);
        }
        return new ColumnType(HASHED, null, null, numBins, false);
    }

    /**
     * This lookup or hashed column one-hot encoded (Keras' {@code output_mode="one_hot"}): one feature per id or
     * bin, 1 at the cell's, named {@code column[i]}, in place of the single index feature.
     *
     * @return the one-hot column type
     * @throws IllegalStateException for a column that is not a lookup or hashed one
     */
    public ColumnType oneHot() {
        if (!isText()) {
            throw new IllegalStateException("only a lookup or hashed column can be one-hot encoded, not " + this);
        }
        return new ColumnType(name, null, vocabulary, bins, true);
    }

    /**
     * A label column whose classes come from the file: when the dataset is built, one pass reads the column; if
     * every value is a number the column is {@link #FLOAT} (the labels are the numbers themselves), otherwise each
     * distinct text is a class, the classes sorted by code point (as Keras sorts the class names of {@code
     * image_dataset_from_directory}, and scikit-learn's {@code LabelEncoder} its classes) and read as their index.
     * A column holding both numbers and text is refused when the dataset is built, naming a line of each: a typo in a
     * column of numbers must not silently turn it into classes.
     * {@link CsvDataset#columnType} tells which, and the classes.
     *
     * @return the column type, for {@link CsvDataset.Builder#label(String, ColumnType)}
     */
    public static ColumnType labelsFromFile() {
        return new ColumnType(LABELS, null);
    }

    /** Whether this is a lookup or hashed text column. */
    boolean isText() {
        return name.equals(LOOKUP) || name.equals(HASHED);
    }

    /** Whether this is a lookup column without a vocabulary, to be adapted from the file. */
    boolean adapts() {
        return name.equals(LOOKUP) && vocabulary == null;
    }

    /** Whether this is a label column whose classes come from the file. */
    boolean labelsFromTheFile() {
        return name.equals(LABELS);
    }

    /** A lookup column's given vocabulary, or null. */
    Vocabulary vocabulary() {
        return vocabulary;
    }

    /** A hashed column's bins, else 0. */
    int bins() {
        return bins;
    }

    /** Whether a text column is one-hot encoded. */
    boolean isOneHot() {
        return oneHot;
    }

    /**
     * The categories of a category column, else an empty list.
     *
     * @return the category names, in index order
     */
    public List<String> categories() {
        return categories == null ? List.of() : categories;
    }

    /**
     * The value of {@code cell} (already unquoted; surrounding spaces are ignored).
     *
     * @throws IllegalArgumentException saying why the cell is bad, for example {@code "'abc' is not a number"}
     */
    float parse(String cell) {
        String s = cell.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty value");
        }
        if (isText() || labelsFromTheFile()) {
            throw new IllegalStateException("a " + name + " column is resolved when the dataset is built");
        }
        if (categories != null) {
            Integer i = index.get(s);
            if (i == null) {
                throw new IllegalArgumentException("'" + CsvLine.shorten(s) + "' is not one of the categories "
                        + categories);
            }
            return i;
        }
        if (this == INT) {
            if (!INTEGER.matcher(s).matches()) {
                throw new IllegalArgumentException("'" + CsvLine.shorten(s) + "' is not an integer");
            }
            if (s.replaceFirst("^[+-]?0*", "").length() > 10 || Math.abs(Long.parseLong(s)) > EXACT_INT) {
                throw new IllegalArgumentException("'" + CsvLine.shorten(s) + "' cannot be represented exactly as "
                        + "float32 (integers up to 2^24 can)");
            }
            return Long.parseLong(s);
        }
        if (SPECIAL.matcher(s).matches()) {
            String lower = s.toLowerCase(Locale.ROOT);
            return lower.contains("nan") ? Float.NaN
                    : lower.startsWith("-") ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
        }
        if (!NUMBER.matcher(s).matches()) {
            throw new IllegalArgumentException("'" + CsvLine.shorten(s) + "' is not a number");
        }
        float f = Float.parseFloat(s);
        if (Float.isInfinite(f)) {
            throw new IllegalArgumentException("'" + CsvLine.shorten(s) + "' is beyond float32's range");
        }
        return f;
    }

    @Override
    public String toString() {
        if (isText()) {
            String what = bins > 0 ? name + "[" + bins + " bins]" : vocabulary == null ? name + "[adapted]"
                    : name + "[" + vocabulary.size() + " ids]";
            return oneHot ? what + " one-hot" : what;
        }
        return categories == null ? name : name + categories;
    }
}
