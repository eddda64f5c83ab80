package dev.brisk.data;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The type of a CSV column ({@link CsvDataset}): how a cell becomes a float32 value, and what counts as a bad one.
 */
public final class ColumnType {
    /** A number (decimal or exponent notation, or nan / inf); the default. */
    public static final ColumnType FLOAT = new ColumnType("float", null);
    /** An integer that float32 holds exactly (at most 2^24 in magnitude). */
    public static final ColumnType INT = new ColumnType("int", null);
    /** A column that is read but not used. */
    public static final ColumnType IGNORE = new ColumnType("ignore", null);

    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern SPECIAL = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);
    private static final long EXACT_INT = 1L << 24;

    private final String name;
    private final List<String> categories;
    private final Map<String, Integer> index;

    private ColumnType(String name, List<String> categories) {
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
        return categories == null ? name : name + categories;
    }
}
