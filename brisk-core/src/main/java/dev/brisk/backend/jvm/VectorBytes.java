package dev.brisk.backend.jvm;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Unsigned bytes (image pixels) to floats divided by a constant, a vector at a time: each lane's byte is
 * zero-extended, converted and divided, so each value is the same correctly rounded quotient the scalar loop
 * gives. The scalar loop read each quotient from a table at about four cycles a pixel, 128 us for a W1 batch.
 */
final class VectorBytes {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final int L = F.length();
    /** Ints of the float vectors' shape (a constant: a species computed in the loop kept C2 from intrinsifying). */
    private static final VectorSpecies<Integer> I = F.withLanes(int.class);
    /**
     * As many bytes as {@link #F} has lanes, so that one byte vector widens into one float vector; null where
     * that is under the smallest vector shape (64 bits: floats of 128-bit vectors), and the scalar loop runs.
     */
    private static final VectorSpecies<Byte> B = L * Byte.SIZE < 64 ? null
            : VectorSpecies.of(byte.class, VectorShape.forBitSize(L * Byte.SIZE));

    private VectorBytes() {
    }

    static void unsignedToFloats(byte[] x, int xOff, float[] y, int yOff, int n, float divisor) {
        int full = B == null ? 0 : B.loopBound(n);
        for (int i = 0; i < full; i += L) {
            FloatVector v = (FloatVector) ByteVector.fromArray(B, x, xOff + i)
                    .convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0)
                    .convert(VectorOperators.I2F, 0);
            v.div(divisor).intoArray(y, yOff + i);
        }
        for (int i = full; i < n; i++) {
            y[yOff + i] = (x[xOff + i] & 0xFF) / divisor;
        }
    }
}
