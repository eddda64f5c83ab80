package dev.brisk.data.preprocessing;

/**
 * SipHash-2-4 (Aumasson and Bernstein) with a 128-bit key given as two 64-bit words, the hash behind TensorFlow's
 * {@code StrongKeyedHash} ({@code highwayhash::SipHash}) and so behind Keras' {@code Hashing} with a {@code salt}
 * ({@code tf.strings.to_hash_bucket_strong(key=salt)}): {@code k0} is the first salt word, {@code k1} the second.
 */
final class SipHash {
    private SipHash() {
    }

    /**
     * The SipHash-2-4 of {@code m} under the key {@code (k0, k1)}, as an unsigned value in a {@code long}.
     *
     * @param k0 the key's first 64-bit word (its bytes 0 to 7, little-endian)
     * @param k1 the key's second word
     * @param m the message
     * @return the hash
     */
    static long hash24(long k0, long k1, byte[] m) {
        long[] v = {0x736f6d6570736575L ^ k0, 0x646f72616e646f6dL ^ k1, 0x6c7967656e657261L ^ k0,
                0x7465646279746573L ^ k1};
        int whole = m.length & ~7;
        for (int at = 0; at < whole; at += 8) {
            compress(v, FarmHash.word(m, at));
        }
        // The last word: the remaining 0 to 7 bytes, little-endian, with the length's low byte on top.
        long last = (long) (m.length & 0xFF) << 56;
        for (int i = m.length - 1; i >= whole; i--) {
            last |= (m[i] & 0xFFL) << (8 * (i - whole));
        }
        compress(v, last);
        v[2] ^= 0xFF;
        for (int r = 0; r < 4; r++) {
            round(v);
        }
        return v[0] ^ v[1] ^ v[2] ^ v[3];
    }

    /** Two rounds over one message word. */
    private static void compress(long[] v, long word) {
        v[3] ^= word;
        round(v);
        round(v);
        v[0] ^= word;
    }

    private static void round(long[] v) {
        v[0] += v[1];
        v[1] = Long.rotateLeft(v[1], 13);
        v[1] ^= v[0];
        v[0] = Long.rotateLeft(v[0], 32);
        v[2] += v[3];
        v[3] = Long.rotateLeft(v[3], 16);
        v[3] ^= v[2];
        v[0] += v[3];
        v[3] = Long.rotateLeft(v[3], 21);
        v[3] ^= v[0];
        v[2] += v[1];
        v[1] = Long.rotateLeft(v[1], 17);
        v[1] ^= v[2];
        v[2] = Long.rotateLeft(v[2], 32);
    }
}
