package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Transposes 8x8 blocks of floats in registers: eight row loads, three rounds of two-vector lane selects (each
 * round swaps the off-diagonal sub-blocks of one size: 4, 2, then 1), eight stores. A scalar transpose moves one
 * float per load and store; this moves 64 in 16 memory operations and 24 shuffles.
 */
final class Transpose8 {
    private static final VectorSpecies<Float> S8 = FloatVector.SPECIES_256;
    private static final FloatVector LO4 = TransposeSelectors.of(S8, 4, false);
    private static final FloatVector HI4 = TransposeSelectors.of(S8, 4, true);
    private static final FloatVector LO2 = TransposeSelectors.of(S8, 2, false);
    private static final FloatVector HI2 = TransposeSelectors.of(S8, 2, true);
    private static final FloatVector LO1 = TransposeSelectors.of(S8, 1, false);
    private static final FloatVector HI1 = TransposeSelectors.of(S8, 1, true);

    private Transpose8() {
    }

    /**
     * Writes the transpose of the 8x8 block whose row {@code i} is {@code src[si + i * srcStride ..+8)} so that
     * row {@code p} of the result is {@code dst[di + p * dstStride ..+8)}.
     */
    static void block(float[] src, int si, int srcStride, float[] dst, int di, int dstStride) {
        FloatVector r0 = FloatVector.fromArray(S8, src, si);
        FloatVector r1 = FloatVector.fromArray(S8, src, si + srcStride);
        FloatVector r2 = FloatVector.fromArray(S8, src, si + 2 * srcStride);
        FloatVector r3 = FloatVector.fromArray(S8, src, si + 3 * srcStride);
        FloatVector r4 = FloatVector.fromArray(S8, src, si + 4 * srcStride);
        FloatVector r5 = FloatVector.fromArray(S8, src, si + 5 * srcStride);
        FloatVector r6 = FloatVector.fromArray(S8, src, si + 6 * srcStride);
        FloatVector r7 = FloatVector.fromArray(S8, src, si + 7 * srcStride);
        FloatVector s0 = LO4.selectFrom(r0, r4);
        FloatVector s4 = HI4.selectFrom(r0, r4);
        FloatVector s1 = LO4.selectFrom(r1, r5);
        FloatVector s5 = HI4.selectFrom(r1, r5);
        FloatVector s2 = LO4.selectFrom(r2, r6);
        FloatVector s6 = HI4.selectFrom(r2, r6);
        FloatVector s3 = LO4.selectFrom(r3, r7);
        FloatVector s7 = HI4.selectFrom(r3, r7);
        FloatVector t0 = LO2.selectFrom(s0, s2);
        FloatVector t2 = HI2.selectFrom(s0, s2);
        FloatVector t1 = LO2.selectFrom(s1, s3);
        FloatVector t3 = HI2.selectFrom(s1, s3);
        FloatVector t4 = LO2.selectFrom(s4, s6);
        FloatVector t6 = HI2.selectFrom(s4, s6);
        FloatVector t5 = LO2.selectFrom(s5, s7);
        FloatVector t7 = HI2.selectFrom(s5, s7);
        LO1.selectFrom(t0, t1).intoArray(dst, di);
        HI1.selectFrom(t0, t1).intoArray(dst, di + dstStride);
        LO1.selectFrom(t2, t3).intoArray(dst, di + 2 * dstStride);
        HI1.selectFrom(t2, t3).intoArray(dst, di + 3 * dstStride);
        LO1.selectFrom(t4, t5).intoArray(dst, di + 4 * dstStride);
        HI1.selectFrom(t4, t5).intoArray(dst, di + 5 * dstStride);
        LO1.selectFrom(t6, t7).intoArray(dst, di + 6 * dstStride);
        HI1.selectFrom(t6, t7).intoArray(dst, di + 7 * dstStride);
    }
}
