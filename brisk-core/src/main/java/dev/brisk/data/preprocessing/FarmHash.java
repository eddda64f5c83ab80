package dev.brisk.data.preprocessing;

/**
 * FarmHash's {@code Fingerprint64} ({@code farmhashna::Hash64}), the hash behind TensorFlow's
 * {@code Fingerprint64} and so behind Keras' {@code Hashing} without a salt ({@code tf.strings.to_hash_bucket_fast})
 * and the out-of-vocabulary buckets of its lookups. A fingerprint is fixed by its definition, never by the
 * platform, so the bins Brisk computes are the bins Keras computes for the same bytes.
 *
 * <p>The algorithm reads 64-bit little-endian words and works in unsigned 64-bit arithmetic, which Java's
 * wrapping {@code long} arithmetic gives bit for bit (only the right shifts must be the unsigned {@code >>>}).
 */
final class FarmHash {
    private static final long K0 = 0xc3a5c85c97cb3127L;
    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;

    private FarmHash() {
    }

    /**
     * The 64-bit fingerprint of {@code s}, as an unsigned value in a {@code long}.
     *
     * @param s the bytes (a string's UTF-8 encoding, as TensorFlow hashes it)
     * @return the fingerprint
     */
    static long fingerprint64(byte[] s) {
        int len = s.length;
        if (len <= 16) {
            return upTo16(s, len);
        }
        if (len <= 32) {
            return upTo32(s, len);
        }
        if (len <= 64) {
            return upTo64(s, len);
        }
        return longer(s, len);
    }

    private static long upTo16(byte[] s, int len) {
        if (len >= 8) {
            long mul = K2 + len * 2L;
            long a = word(s, 0) + K2;
            long b = word(s, len - 8);
            long c = Long.rotateRight(b, 37) * mul + a;
            long d = (Long.rotateRight(a, 25) + b) * mul;
            return mix16(c, d, mul);
        }
        if (len >= 4) {
            long mul = K2 + len * 2L;
            long a = word32(s, 0);
            return mix16(len + (a << 3), word32(s, len - 4), mul);
        }
        if (len > 0) {
            long a = s[0] & 0xFF;
            long b = s[len >> 1] & 0xFF;
            long c = s[len - 1] & 0xFF;
            long y = a + (b << 8);
            long z = len + (c << 2);
            return shiftMix(y * K2 ^ z * K0) * K2;
        }
        return K2;
    }

    private static long upTo32(byte[] s, int len) {
        long mul = K2 + len * 2L;
        long a = word(s, 0) * K1;
        long b = word(s, 8);
        long c = word(s, len - 8) * mul;
        long d = word(s, len - 16) * K2;
        return mix16(Long.rotateRight(a + b, 43) + Long.rotateRight(c, 30) + d,
                a + Long.rotateRight(b + K2, 18) + c, mul);
    }

    private static long upTo64(byte[] s, int len) {
        long mul = K2 + len * 2L;
        long a = word(s, 0) * K2;
        long b = word(s, 8);
        long c = word(s, len - 8) * mul;
        long d = word(s, len - 16) * K2;
        long y = Long.rotateRight(a + b, 43) + Long.rotateRight(c, 30) + d;
        long z = mix16(y, a + Long.rotateRight(b + K2, 18) + c, mul);
        long e = word(s, 16) * mul;
        long f = word(s, 24);
        long g = (y + word(s, len - 32)) * mul;
        long h = (z + word(s, len - 24)) * mul;
        return mix16(Long.rotateRight(e + f, 43) + Long.rotateRight(g, 30) + h,
                e + Long.rotateRight(f + a, 18) + g, mul);
    }

    /** More than 64 bytes: 64-byte blocks through a 56-byte state, then the last 64 bytes (which may overlap). */
    private static long longer(byte[] s, int len) {
        long seed = 81;
        long x = seed * K2 + word(s, 0);
        long y = seed * K1 + 113;
        long z = shiftMix(y * K2 + 113) * K2;
        long[] v = new long[2];
        long[] w = new long[2];
        int end = ((len - 1) / 64) * 64;
        int last64 = end + ((len - 1) & 63) - 63;
        int at = 0;
        do {
            x = Long.rotateRight(x + y + v[0] + word(s, at + 8), 37) * K1;
            y = Long.rotateRight(y + v[1] + word(s, at + 48), 42) * K1;
            x ^= w[1];
            y += v[0] + word(s, at + 40);
            z = Long.rotateRight(z + w[0], 33) * K1;
            weak32(s, at, v[1] * K1, x + w[0], v);
            weak32(s, at + 32, z + w[1], y + word(s, at + 16), w);
            long t = z;
            z = x;
            x = t;
            at += 64;
        } while (at != end);
        long mul = K1 + ((z & 0xFF) << 1);
        at = last64;
        w[0] += (len - 1) & 63;
        v[0] += w[0];
        w[0] += v[0];
        x = Long.rotateRight(x + y + v[0] + word(s, at + 8), 37) * mul;
        y = Long.rotateRight(y + v[1] + word(s, at + 48), 42) * mul;
        x ^= w[1] * 9;
        y += v[0] * 9 + word(s, at + 40);
        z = Long.rotateRight(z + w[0], 33) * mul;
        weak32(s, at, v[1] * mul, x + w[0], v);
        weak32(s, at + 32, z + w[1], y + word(s, at + 16), w);
        // The reference swaps z and x here and then reads them; reading them unswapped is the same.
        return mix16(mix16(v[0], w[0], mul) + shiftMix(y) * K0 + x, mix16(v[1], w[1], mul) + z, mul);
    }

    /** FarmHash's {@code WeakHashLen32WithSeeds} over the 32 bytes at {@code at}, into {@code out}. */
    private static void weak32(byte[] s, int at, long a, long b, long[] out) {
        long w = word(s, at);
        long x = word(s, at + 8);
        long y = word(s, at + 16);
        long z = word(s, at + 24);
        a += w;
        b = Long.rotateRight(b + a + z, 21);
        long c = a;
        a += x;
        a += y;
        b += Long.rotateRight(a, 44);
        out[0] = a + z;
        out[1] = b + c;
    }

    /** FarmHash's {@code HashLen16(u, v, mul)}. */
    private static long mix16(long u, long v, long mul) {
        long a = (u ^ v) * mul;
        a ^= a >>> 47;
        long b = (v ^ a) * mul;
        b ^= b >>> 47;
        return b * mul;
    }

    private static long shiftMix(long v) {
        return v ^ (v >>> 47);
    }

    /** The little-endian 64-bit word at {@code at}. */
    static long word(byte[] s, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (s[at + i] & 0xFF);
        }
        return v;
    }

    /** The little-endian 32-bit word at {@code at}, unsigned. */
    private static long word32(byte[] s, int at) {
        return (s[at] & 0xFFL) | (s[at + 1] & 0xFFL) << 8 | (s[at + 2] & 0xFFL) << 16 | (s[at + 3] & 0xFFL) << 24;
    }
}
