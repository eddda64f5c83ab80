package dev.brisk.data.preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ids of characters and words: padding 0, OOV 1, then by frequency; round trips; Keras' word splitting. */
class VocabularyTest {

    @Test
    void charactersAreOrderedByFrequencyThenByCharacter() {
        // 'a' x3, 'b' x2, ' ' x2, 'c' x1: 'b' before ' ' at equal counts, Keras' descending tie order (' ' < 'b').
        Vocabulary v = Vocabulary.ofCharacters("abacab  ");
        assertEquals(List.of("", "[UNK]", "a", "b", " ", "c"), v.tokens());
        assertEquals(6, v.size());
        assertEquals(Vocabulary.PADDING, v.id(""));
        assertEquals(2, v.id("a"));
        assertEquals(5, v.id("c"));
        assertEquals(Vocabulary.OOV, v.id("z"));
        assertArrayEquals(new int[] {3, 2, 1, 4, 5}, v.encodeCharacters("baz c"));
        assertEquals("ba[UNK] c", v.decode(v.encodeCharacters("baz c"), ""));
    }

    @Test
    void adaptBreaksTiesAsKerasLexsortReversedDoes() {
        // Keras: tokens, counts = token_counts.export(); np.lexsort((tokens, counts))[::-1]. With the counts
        // red:3, blue:2, green:2, Blue:2, amber:1, \uFFFD:1, \uD83D\uDE00 (U+1F600):1 the lexsort ascending is
        // amber, \uFFFD, U+1F600 (count 1 by UTF-8 bytes), Blue, blue, green (count 2), red; reversed:
        List<String> seen = List.of("red", "blue", "green", "red", "Blue", "amber", "green", "blue", "red", "Blue",
                "\uFFFD", "\uD83D\uDE00", "", "[UNK]");
        Vocabulary v = Vocabulary.adapt(seen, 0);
        // U+1F600 sorts above U+FFFD in UTF-8 bytes (F0.. > EF..), though its UTF-16 surrogate D83D is below FFFD.
        assertEquals(List.of("", "[UNK]", "red", "green", "blue", "Blue", "\uD83D\uDE00", "\uFFFD", "amber"),
                v.tokens());
        // The empty token and Keras' OOV token are not counted, as Keras removes its mask and OOV tokens.
        assertEquals(Vocabulary.OOV, v.id("[UNK]"));
        // max_tokens keeps the first ones of that order: padding, OOV and 3 tokens.
        assertEquals(List.of("", "[UNK]", "red", "green", "blue"), Vocabulary.adapt(seen, 5).tokens());
    }

    @Test
    void theSameTextGivesTheSameIds() {
        String text = "the quick brown fox jumps over the lazy dog";
        assertEquals(Vocabulary.ofCharacters(text).tokens(), Vocabulary.ofCharacters(text).tokens());
        Vocabulary v = Vocabulary.ofCharacters(text);
        assertEquals(text, v.decode(v.encodeCharacters(text), ""));
    }

    @Test
    void charactersOutsideTheBasicPlaneAreOneToken() {
        String text = "a\uD83D\uDE00a"; // a, U+1F600, a
        Vocabulary v = Vocabulary.ofCharacters(text);
        assertEquals(4, v.size());
        assertArrayEquals(new int[] {2, 3, 2}, v.encodeCharacters(text));
        assertEquals(text, v.decode(v.encodeCharacters(text), ""));
    }

    @Test
    void wordsAreLowerCasedWithoutPunctuationAsKerasSplitsThem() {
        assertEquals(List.of("hello", "world", "its", "2", "pm"), Vocabulary.words("Hello, World!  It's\t2 p.m."));
        Vocabulary v = Vocabulary.ofWords("the cat and the hat. The end", 0);
        assertEquals(List.of("", "[UNK]", "the", "hat", "end", "cat", "and"), v.tokens());
        assertArrayEquals(new int[] {2, 5, 1}, v.encode(Vocabulary.words("The cat sat")));
        assertEquals("the cat [UNK]", v.decode(new int[] {2, 0, 5, 1, 0}, " "));
    }

    @Test
    void maxTokensKeepsTheMostFrequent() {
        Vocabulary v = Vocabulary.ofWords("a a a b b c", 4);
        assertEquals(List.of("", "[UNK]", "a", "b"), v.tokens());
        assertEquals(Vocabulary.OOV, v.id("c"));
        assertThrows(IllegalArgumentException.class, () -> Vocabulary.ofWords("a", 1));
    }

    @Test
    void aFixedVocabularyKeepsItsOrderAndRefusesRepeats() {
        Vocabulary v = Vocabulary.of(List.of("z", "y"));
        assertEquals(2, v.id("z"));
        assertEquals(3, v.id("y"));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> Vocabulary.of(List.of("z", "y", "z")));
        assertTrue(twice.getMessage().contains("'z' appears twice"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Vocabulary.of(List.of("")));
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class, () -> v.token(4));
        assertTrue(outside.getMessage().contains("id 4 is outside the vocabulary of 4 ids"), outside.getMessage());
    }

    @Test
    void lookupsMakeInt32Tensors() {
        Vocabulary chars = Vocabulary.ofCharacters("abc");
        Tensor t = chars.characterLookup().apply("cab?");
        assertEquals(DType.INT32, t.dtype());
        assertEquals(Shape.of(4), t.shape());
        assertArrayEquals(new int[] {chars.id("c"), chars.id("a"), chars.id("b"), Vocabulary.OOV}, t.toIntArray());
        Vocabulary words = Vocabulary.ofWords("red green", 0);
        assertArrayEquals(new int[] {words.id("green"), Vocabulary.OOV},
                words.wordLookup().apply("Green blue!").toIntArray());
    }
}
