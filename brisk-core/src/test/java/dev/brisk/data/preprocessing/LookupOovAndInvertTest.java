package dev.brisk.data.preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Several out-of-vocabulary indexes and {@code invert} in {@link IntegerLookup} and {@link Vocabulary} (Keras'
 * {@code StringLookup}), against the examples of Keras 3's documentation of those layers (written out here).
 */
class LookupOovAndInvertTest {
    private static final long[] VOCAB = {12, 36, 1138, 42};

    @Test
    void integerLookupSpreadsUnknownValuesByFloorMod() {
        // IntegerLookup(vocabulary=[12, 36, 1138, 42], num_oov_indices=2) on [[12, 1138, 42], [37, 1000, 36]]
        // gives [[2, 4, 5], [1, 0, 3]]: 37 mod 2 = 1, 1000 mod 2 = 0.
        Tensor data = Tensor.of(new float[] {12, 1138, 42, 37, 1000, 36}, 2, 3);
        IntegerLookup lookup = new IntegerLookup(VOCAB).numOovIndices(2);
        assertArrayEquals(new int[] {2, 4, 5, 1, 0, 3}, lookup.apply(data).toIntArray());
        assertEquals(6, lookup.size());
        // floorMod, not the remainder: -7 goes to 2 of 3.
        assertArrayEquals(new int[] {2}, new IntegerLookup(VOCAB).numOovIndices(3)
                .apply(Tensor.ofInts(new int[] {-7}, 1)).toIntArray());
        // With a mask token the out-of-vocabulary indexes start at 1.
        IntegerLookup masked = new IntegerLookup(VOCAB, 0L).numOovIndices(2);
        assertArrayEquals(new int[] {0, 2, 1, 3}, masked.apply(Tensor.ofInts(new int[] {0, 37, 1000, 12}, 4))
                .toIntArray());
        // IntegerLookup(vocabulary=[10, 20, 30], num_oov_indices=4, oov_method=...) on
        // [100, 300, 700, 1100, 1700, 2000]: "floormod" gives [0, 0, 0, 0, 0, 0], "farmhash" [3, 3, 2, 2, 0, 1].
        Tensor multiples = Tensor.ofInts(new int[] {100, 300, 700, 1100, 1700, 2000}, 6);
        IntegerLookup four = new IntegerLookup(10, 20, 30).numOovIndices(4);
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0}, four.apply(multiples).toIntArray());
        assertArrayEquals(new int[] {3, 3, 2, 2, 0, 1},
                four.oovMethod(IntegerLookup.OovMethod.FARMHASH).apply(multiples).toIntArray());
        // oov_method="farmhash": the unknown value's Hashing bin.
        IntegerLookup farm = new IntegerLookup(VOCAB).numOovIndices(5).oovMethod(IntegerLookup.OovMethod.FARMHASH);
        assertArrayEquals(new int[] {new Hashing(5).bin(37L), new Hashing(5).bin(1000L), 6},
                farm.apply(Tensor.ofInts(new int[] {37, 1000, 36}, 3)).toIntArray());
    }

    @Test
    void integerLookupWithoutOovIndexesRefusesUnknownValues() {
        IntegerLookup strict = new IntegerLookup(VOCAB).numOovIndices(0);
        assertArrayEquals(new int[] {0, 3}, strict.apply(Tensor.ofInts(new int[] {12, 42}, 2)).toIntArray());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> strict.apply(Tensor.ofInts(new int[] {12, 7}, 2)));
        assertTrue(e.getMessage().contains("value 7 at index 1"), e.getMessage());
        // adapt counts the out-of-vocabulary indexes toward max_tokens.
        Tensor data = Tensor.of(new float[] {12, 1138, 42, 42, 1000, 36}, 2, 3);
        assertArrayEquals(new long[] {42}, IntegerLookup.adapt(List.of(data), 3, 2).vocabulary());
        assertEquals(3, IntegerLookup.adapt(List.of(data), 3, 2).size());
    }

    @Test
    void integerLookupInvertsAsKerasDocumentationShows() {
        // IntegerLookup(vocabulary=[12, 36, 1138, 42], invert=True) on [[1, 3, 4], [4, 0, 2]] gives
        // [[12, 1138, 42], [42, -1, 36]].
        Tensor ids = Tensor.ofInts(new int[] {1, 3, 4, 4, 0, 2}, 2, 3);
        Tensor values = new IntegerLookup(VOCAB).inverse().apply(ids);
        assertArrayEquals(new int[] {12, 1138, 42, 42, -1, 36}, values.toIntArray());
        assertArrayEquals(new int[] {2, 3}, values.shape().dims());
        // Mask index 0 gives the mask token; every out-of-vocabulary index and any index outside gives -1.
        IntegerLookup masked = new IntegerLookup(VOCAB, 0L).numOovIndices(2);
        assertArrayEquals(new int[] {0, -1, -1, 12, 42, -1, -1},
                masked.inverse().apply(Tensor.ofInts(new int[] {0, 1, 2, 3, 6, 7, -3}, 7)).toIntArray());
        // Lookup then inverse is the identity on the vocabulary.
        Tensor known = Tensor.ofInts(new int[] {42, 12, 36}, 3);
        assertArrayEquals(known.toIntArray(), masked.inverse().apply(masked.apply(known)).toIntArray());
        assertThrows(IllegalArgumentException.class, () -> new IntegerLookup(1L << 40).inverse());
    }

    @Test
    void stringLookupHashesUnknownTokensAsKerasDocumentationShows() {
        // StringLookup(vocabulary=["a", "b", "c", "d"], num_oov_indices=2) on [["a", "c", "d"], ["m", "z", "b"]]
        // gives [[2, 4, 5], [0, 1, 3]]; Brisk's vocabulary has the mask token "" at 0, so each id is one more.
        Vocabulary v = Vocabulary.of(List.of("a", "b", "c", "d"), 2);
        assertArrayEquals(new int[] {3, 5, 6, 1, 2, 4}, v.encode(List.of("a", "c", "d", "m", "z", "b")));
        assertEquals(List.of("", "[UNK]", "[UNK]", "a", "b", "c", "d"), v.tokens());
        assertEquals(7, v.size());
        // Each unknown token goes where its Fingerprint64 sends it, the same as Hashing with two bins.
        for (String t : List.of("m", "z", "unknown", "ünïcödé")) {
            assertEquals(1 + new Hashing(2).bin(t), v.id(t), t);
        }
        // adapt: max_tokens counts padding and the out-of-vocabulary ids.
        Vocabulary adapted = Vocabulary.adapt(List.of("x", "y", "x", "z", "x", "y"), 5, 2);
        assertEquals(List.of("", "[UNK]", "[UNK]", "x", "y"), adapted.tokens());
        // Without out-of-vocabulary ids an unknown token is an error.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Vocabulary.of(List.of("a"), 0).id("b"));
        assertTrue(e.getMessage().contains("'b' is not in the vocabulary"), e.getMessage());
        assertEquals(1, Vocabulary.of(List.of("a"), 0).id("a"));
    }

    @Test
    void stringLookupInvertsAsKerasDocumentationShows() {
        // StringLookup(vocabulary=["a", "b", "c", "d"], invert=True) on [[1, 3, 4], [4, 0, 2]] gives
        // [["a", "c", "d"], ["d", "[UNK]", "b"]]; with Brisk's mask token the ids are one more, and 0 is "".
        Vocabulary v = Vocabulary.of(List.of("a", "b", "c", "d"));
        assertEquals(List.of("a", "c", "d", "d", "[UNK]", "b"),
                v.inverse().apply(Tensor.ofInts(new int[] {2, 4, 5, 5, 1, 3}, 2, 3)));
        assertEquals(List.of("", "[UNK]", "[UNK]"), v.inverse().apply(Tensor.of(new float[] {0, 99, -1}, 3)));
    }
}
