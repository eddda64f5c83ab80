package dev.brisk.data;

import dev.brisk.data.preprocessing.Hashing;
import dev.brisk.data.preprocessing.Vocabulary;
import java.util.ArrayList;
import java.util.List;

/**
 * A text feature column of a {@link CsvDataset} made ready to read: the vocabulary it is looked up in or the hashing
 * into bins, and the features it writes (its index, or its one-hot encoding).
 */
final class TextColumn {
    private final String name;
    private final Vocabulary vocabulary;
    private final Hashing hashing;
    private final boolean oneHot;

    /**
     * @param name the column's header name
     * @param type a lookup or hashed column type
     * @param adapted the vocabulary adapted from the file, for a lookup column without one, else null
     * @param missingIsMask whether missing cells are read (fillMissing), which a hashed column gives bin 0 alone
     */
    TextColumn(String name, ColumnType type, Vocabulary adapted, boolean missingIsMask) {
        this.name = name;
        this.oneHot = type.isOneHot();
        if (type.bins() > 0) {
            if (missingIsMask && type.bins() < 2) {
                throw new IllegalArgumentException("hashed column '" + name + "': with missing cells filled, bin 0 is"
                        + " theirs alone, so it needs at least 2 bins, got " + type.bins());
            }
            this.vocabulary = null;
            this.hashing = missingIsMask ? new Hashing(type.bins()).maskValue("") : new Hashing(type.bins());
        } else {
            this.vocabulary = type.vocabulary() != null ? type.vocabulary() : adapted;
            this.hashing = null;
        }
    }

    /** The number of features the column gives. */
    int width() {
        return !oneHot ? 1 : vocabulary != null ? vocabulary.size() : hashing.bins();
    }

    /** The names of its features: the column's name, or {@code name[i]} for each one-hot entry. */
    List<String> featureNames() {
        if (!oneHot) {
            return List.of(name);
        }
        List<String> names = new ArrayList<>(width());
        for (int i = 0; i < width(); i++) {
            names.add(name + "[" + i + "]");
        }
        return names;
    }

    /** The vocabulary of a lookup column, or null for a hashed one. */
    Vocabulary vocabulary() {
        return vocabulary;
    }

    /**
     * Writes the features of one cell at {@code at}: a missing cell is id 0 (padding, Keras' mask token) or bin 0
     * (the mask value's), any other is looked up or hashed with its surrounding spaces stripped.
     *
     * @throws IllegalArgumentException for a value outside a vocabulary without out-of-vocabulary ids
     */
    void write(String cell, boolean missing, float[] features, int at) {
        int index = missing ? 0 : vocabulary != null ? vocabulary.id(cell.strip()) : hashing.bin(cell.strip());
        if (oneHot) {
            features[at + index] = 1f;
        } else {
            features[at] = index;
        }
    }
}
