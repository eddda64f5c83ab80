package dev.brisk.cli;

import dev.brisk.data.ColumnType;

/**
 * One text feature column of {@code brisk train --model} on a CSV: {@code --lookup-column COLUMN[:one_hot]} (Keras'
 * {@code StringLookup}, its vocabulary adapted from the file) or {@code --hash-column COLUMN:BINS[:one_hot]} (Keras'
 * {@code Hashing(num_bins)}). The value is read from the right, so a column name may hold a colon only in a lookup
 * without {@code :one_hot}.
 *
 * @param column the header name
 * @param bins the hash bins, or 0 for a lookup column
 * @param oneHot whether the column gives one feature per id or bin instead of its index
 */
record TextColumnOption(String column, int bins, boolean oneHot) {
    private static final String ONE_HOT = ":one_hot";

    /** {@code COLUMN[:one_hot]}. */
    static TextColumnOption lookup(String value) {
        boolean oneHot = value.endsWith(ONE_HOT);
        String column = oneHot ? value.substring(0, value.length() - ONE_HOT.length()) : value;
        if (column.isEmpty()) {
            throw new IllegalArgumentException("'" + value + "': give a column name, e.g. city or city:one_hot");
        }
        return new TextColumnOption(column, 0, oneHot);
    }

    /** {@code COLUMN:BINS[:one_hot]}. */
    static TextColumnOption hashed(String value) {
        boolean oneHot = value.endsWith(ONE_HOT);
        String spec = oneHot ? value.substring(0, value.length() - ONE_HOT.length()) : value;
        int colon = spec.lastIndexOf(':');
        int bins = -1;
        if (colon > 0) {
            try {
                bins = Integer.parseInt(spec.substring(colon + 1));
            } catch (NumberFormatException e) {
                bins = -1;
            }
        }
        if (bins < 1) {
            throw new IllegalArgumentException("'" + value + "': give COLUMN:BINS with at least 1 bin, e.g. zip:64 or"
                    + " zip:64:one_hot");
        }
        return new TextColumnOption(spec.substring(0, colon), bins, oneHot);
    }

    /** The column type it declares. */
    ColumnType type() {
        ColumnType t = bins > 0 ? ColumnType.hashed(bins) : ColumnType.lookup();
        return oneHot ? t.oneHot() : t;
    }
}
