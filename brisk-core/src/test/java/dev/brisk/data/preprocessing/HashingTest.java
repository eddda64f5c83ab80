package dev.brisk.data.preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Hashing} against the examples of Keras 3's documentation (the bins TensorFlow's hash ops give, written out
 * here), and its two hashes against Guava's independent implementations and SipHash's reference vectors.
 */
class HashingTest {
    private static final List<String> AE = List.of("A", "B", "C", "D", "E");

    @Test
    void binsAsKerasDocumentationShows() {
        // keras.layers.Hashing(num_bins=3)([['A'], ['B'], ['C'], ['D'], ['E']]) is [[1], [0], [1], [1], [2]].
        assertArrayEquals(new int[] {1, 0, 1, 1, 2}, new Hashing(3).strings(AE).toIntArray());
        // ... mask_value='' on [['A'], ['B'], [''], ['C'], ['D']] gives [[1], [1], [0], [2], [2]].
        assertArrayEquals(new int[] {1, 1, 0, 2, 2},
                new Hashing(3).maskValue("").strings(List.of("A", "B", "", "C", "D")).toIntArray());
        // ... salt=[133, 137] gives [[1], [2], [1], [0], [2]];
        // salt=133 (the same as [133, 133]) gives [[0], [0], [2], [1], [0]].
        assertArrayEquals(new int[] {1, 2, 1, 0, 2}, new Hashing(3).salt(133, 137).strings(AE).toIntArray());
        assertArrayEquals(new int[] {0, 0, 2, 1, 0}, new Hashing(3).salt(133).strings(AE).toIntArray());
    }

    @Test
    void fingerprint64AgreesWithGuavaAtEveryLength() {
        SplittableRandom random = new SplittableRandom(7);
        // Every branch: 0, 1-3, 4-7, 8-16, 17-32, 33-64 bytes and several 64-byte blocks, with every remainder.
        for (int len = 0; len <= 300; len++) {
            for (int trial = 0; trial < 20; trial++) {
                byte[] bytes = randomBytes(random, len);
                long expected = com.google.common.hash.Hashing.farmHashFingerprint64().hashBytes(bytes).asLong();
                assertEquals(expected, FarmHash.fingerprint64(bytes), "FarmHash Fingerprint64 of " + len + " bytes");
            }
        }
        assertEquals(0x9ae16a3b2f90404fL, FarmHash.fingerprint64(new byte[0]));
    }

    @Test
    void sipHashAgreesWithReferenceVectorsAndGuava() {
        // The reference implementation's vectors: key 00 01 .. 0f, message 00 01 .. (n - 1), output little-endian.
        long k0 = 0x0706050403020100L;
        long k1 = 0x0f0e0d0c0b0a0908L;
        assertEquals(0x726fdb47dd0e0e31L, SipHash.hash24(k0, k1, counting(0)));
        assertEquals(0x74f839c593dc67fdL, SipHash.hash24(k0, k1, counting(1)));
        assertEquals(0xa129ca6149be45e5L, SipHash.hash24(k0, k1, counting(15)), "the paper's example");
        assertEquals(0x958a324ceb064572L, SipHash.hash24(k0, k1, counting(63)));
        SplittableRandom random = new SplittableRandom(11);
        for (int len = 0; len <= 100; len++) {
            for (int trial = 0; trial < 20; trial++) {
                byte[] bytes = randomBytes(random, len);
                long a = random.nextLong();
                long b = random.nextLong();
                long expected = com.google.common.hash.Hashing.sipHash24(a, b).hashBytes(bytes).asLong();
                assertEquals(expected, SipHash.hash24(a, b, bytes), "SipHash-2-4 of " + len + " bytes");
            }
        }
    }

    @Test
    void stringsAreHashedAsUtf8AndBinnedUnsigned() {
        Hashing h = new Hashing(1000);
        for (String s : List.of("café", "日本語", "emoji \uD83D\uDE00", "plain")) {
            long hash = com.google.common.hash.Hashing.farmHashFingerprint64()
                    .hashBytes(s.getBytes(StandardCharsets.UTF_8)).asLong();
            assertEquals((int) Long.remainderUnsigned(hash, 1000), h.bin(s), s);
        }
        // With a mask, the others hash into numBins - 1 bins, shifted up by one.
        Hashing masked = new Hashing(1000).maskValue("");
        long hash = FarmHash.fingerprint64("plain".getBytes(StandardCharsets.UTF_8));
        assertEquals((int) Long.remainderUnsigned(hash, 999) + 1, masked.bin("plain"));
        // One bin leaves no room for a mask: Keras then ignores it.
        assertEquals(0, new Hashing(1).maskValue("x").bin("y"));
    }

    @Test
    void integersAreHashedAsTheirDecimalStrings() {
        Hashing h = new Hashing(97).salt(5, 9);
        for (long v : new long[] {0, 7, -12, 1_000_000, Long.MIN_VALUE}) {
            assertEquals(h.bin(Long.toString(v)), h.bin(v), "value " + v);
        }
        // INT32 and float tensors alike; floats truncated toward zero as Keras casts them to int64.
        Tensor ints = Tensor.ofInts(new int[] {3, -4, 12, 3}, 2, 2);
        Tensor bins = h.apply(ints);
        assertEquals(DType.INT32, bins.dtype());
        assertEquals(Shape.of(2, 2), bins.shape());
        assertArrayEquals(new int[] {h.bin(3), h.bin(-4), h.bin(12), h.bin(3)}, bins.toIntArray());
        assertArrayEquals(bins.toIntArray(), h.apply(Tensor.of(new float[] {3.9f, -4.5f, 12f, 3f}, 2, 2)).toIntArray());
    }

    @Test
    void theMaskIsComparedBeforeFloatsAreTruncated() {
        Hashing h = new Hashing(10).maskValue(0);
        assertEquals(0, h.bin(0L));
        assertArrayEquals(new int[] {0, 0}, h.apply(Tensor.ofInts(new int[] {0, 0}, 2)).toIntArray());
        assertArrayEquals(new int[] {0}, h.apply(Tensor.of(new float[] {0f}, 1)).toIntArray());
        // 0.5 is not the mask value 0, so it is hashed, as the string "0" that truncation makes of it.
        int half = h.apply(Tensor.of(new float[] {0.5f}, 1)).toIntArray()[0];
        assertTrue(half >= 1 && half < 10, "bin " + half);
        long hash = FarmHash.fingerprint64("0".getBytes(StandardCharsets.UTF_8));
        assertEquals((int) Long.remainderUnsigned(hash, 9) + 1, half);
    }

    @Test
    void outputModesEncodeTheBins() {
        Hashing h = new Hashing(3);
        // Bins of A..E are 1, 0, 1, 1, 2.
        Tensor oneHot = h.outputMode(Hashing.OutputMode.ONE_HOT).strings(AE);
        assertEquals(Shape.of(5, 3), oneHot.shape());
        assertArrayEquals(new float[] {0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1}, oneHot.toArray());
        assertArrayEquals(new float[] {1, 1, 1}, h.outputMode(Hashing.OutputMode.MULTI_HOT).strings(AE).toArray());
        assertArrayEquals(new float[] {1, 3, 1}, h.outputMode(Hashing.OutputMode.COUNT).strings(AE).toArray());
        // A last axis of 1 is replaced in one-hot mode, as Keras squeezes it.
        Tensor column = Tensor.ofInts(new int[] {1, 2, 3}, 3, 1);
        assertEquals(Shape.of(3, 3), h.outputMode(Hashing.OutputMode.ONE_HOT).apply(column).shape());
    }

    @Test
    void errorsNameTheProblem() {
        assertThrows(IllegalArgumentException.class, () -> new Hashing(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Hashing(4).maskValue("").bin(3));
        assertTrue(e.getMessage().contains("is a string but the input is integers"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Hashing(4).maskValue(0).bin("a"));
        assertTrue(e.getMessage().contains("is an integer but the input is strings"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Hashing(4).apply(Tensor.of(new float[] {1, Float.NaN}, 2)));
        assertTrue(e.getMessage().contains("value NaN at index 1"), e.getMessage());
    }

    private static byte[] randomBytes(SplittableRandom random, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }

    private static byte[] counting(int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) i;
        }
        return b;
    }
}
