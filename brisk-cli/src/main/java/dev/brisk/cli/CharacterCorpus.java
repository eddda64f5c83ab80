package dev.brisk.cli;

import dev.brisk.data.Fortunes;
import dev.brisk.data.preprocessing.Vocabulary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * W4's data: the fortunes text as character ids, its last {@value #HELD_OUT_PERCENT}% held out. The vocabulary is
 * the characters of the training part (a character seen only in the held-out part is out of vocabulary, id 1), so
 * nothing about the held-out text reaches the model.
 *
 * @param vocabulary the characters of the training text, padding and OOV first
 * @param train the training text's ids
 * @param heldOut the held-out text's ids
 */
record CharacterCorpus(Vocabulary vocabulary, int[] train, int[] heldOut) {
    /** Share of the text, from its end, held out. */
    static final int HELD_OUT_PERCENT = 10;

    /** The fortune files of {@code dir} ({@link Fortunes#load}), split and encoded. */
    static CharacterCorpus load(Path dir) throws IOException {
        return of(Fortunes.load(dir));
    }

    /** {@code text} split at {@code 90%} of its characters (code points) and encoded. */
    static CharacterCorpus of(String text) {
        int[] codePoints = text.codePoints().toArray();
        int cut = (int) ((long) codePoints.length * (100 - HELD_OUT_PERCENT) / 100);
        String trainText = new String(codePoints, 0, cut);
        Vocabulary v = Vocabulary.ofCharacters(trainText);
        int[] all = v.encodeCharacters(text);
        return new CharacterCorpus(v, Arrays.copyOf(all, cut), Arrays.copyOfRange(all, cut, all.length));
    }
}
