package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Transposes 16x16 blocks of floats in 512-bit registers, as {@link Transpose8} does 8x8 blocks: sixteen row loads,
 * four rounds of two-vector lane selects (each round swaps the off-diagonal sub-blocks of one size: 8, 4, 2, then 1),
 * sixteen stores. Where 512-bit vectors are the preferred ones, gemm's transposed packing uses this rather than
 * {@link Transpose8}, so that no second vector size runs in the JVM: 256-bit vectors beside 512-bit ones mix two
 * classes into the type profiles of the JDK's shared vector methods, which once made C2 compile a gemm kernel into
 * calls to the Java fallback (BENCHMARKS.md, "Morning of 2026-12-04"). It also moves 256 floats in 32 memory
 * operations and 64 selects, where four 8x8 blocks take 64 and 96.
 */
final class Transpose16 {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_512;
    private static final FloatVector LO8 = TransposeSelectors.of(S, 8, false);
    private static final FloatVector HI8 = TransposeSelectors.of(S, 8, true);
    private static final FloatVector LO4 = TransposeSelectors.of(S, 4, false);
    private static final FloatVector HI4 = TransposeSelectors.of(S, 4, true);
    private static final FloatVector LO2 = TransposeSelectors.of(S, 2, false);
    private static final FloatVector HI2 = TransposeSelectors.of(S, 2, true);
    private static final FloatVector LO1 = TransposeSelectors.of(S, 1, false);
    private static final FloatVector HI1 = TransposeSelectors.of(S, 1, true);

    private Transpose16() {
    }

    /**
     * Writes the transpose of the 16x16 block whose row {@code i} is {@code src[si + i * srcStride ..+16)} so that
     * row {@code p} of the result is {@code dst[di + p * dstStride ..+16)}.
     */
    static void block(float[] src, int si, int srcStride, float[] dst, int di, int dstStride) {
        FloatVector r0 = FloatVector.fromArray(S, src, si);
        FloatVector r1 = FloatVector.fromArray(S, src, si + srcStride);
        FloatVector r2 = FloatVector.fromArray(S, src, si + 2 * srcStride);
        FloatVector r3 = FloatVector.fromArray(S, src, si + 3 * srcStride);
        FloatVector r4 = FloatVector.fromArray(S, src, si + 4 * srcStride);
        FloatVector r5 = FloatVector.fromArray(S, src, si + 5 * srcStride);
        FloatVector r6 = FloatVector.fromArray(S, src, si + 6 * srcStride);
        FloatVector r7 = FloatVector.fromArray(S, src, si + 7 * srcStride);
        FloatVector r8 = FloatVector.fromArray(S, src, si + 8 * srcStride);
        FloatVector r9 = FloatVector.fromArray(S, src, si + 9 * srcStride);
        FloatVector r10 = FloatVector.fromArray(S, src, si + 10 * srcStride);
        FloatVector r11 = FloatVector.fromArray(S, src, si + 11 * srcStride);
        FloatVector r12 = FloatVector.fromArray(S, src, si + 12 * srcStride);
        FloatVector r13 = FloatVector.fromArray(S, src, si + 13 * srcStride);
        FloatVector r14 = FloatVector.fromArray(S, src, si + 14 * srcStride);
        FloatVector r15 = FloatVector.fromArray(S, src, si + 15 * srcStride);
        FloatVector s0 = LO8.selectFrom(r0, r8);
        FloatVector s8 = HI8.selectFrom(r0, r8);
        FloatVector s1 = LO8.selectFrom(r1, r9);
        FloatVector s9 = HI8.selectFrom(r1, r9);
        FloatVector s2 = LO8.selectFrom(r2, r10);
        FloatVector s10 = HI8.selectFrom(r2, r10);
        FloatVector s3 = LO8.selectFrom(r3, r11);
        FloatVector s11 = HI8.selectFrom(r3, r11);
        FloatVector s4 = LO8.selectFrom(r4, r12);
        FloatVector s12 = HI8.selectFrom(r4, r12);
        FloatVector s5 = LO8.selectFrom(r5, r13);
        FloatVector s13 = HI8.selectFrom(r5, r13);
        FloatVector s6 = LO8.selectFrom(r6, r14);
        FloatVector s14 = HI8.selectFrom(r6, r14);
        FloatVector s7 = LO8.selectFrom(r7, r15);
        FloatVector s15 = HI8.selectFrom(r7, r15);
        FloatVector t0 = LO4.selectFrom(s0, s4);
        FloatVector t4 = HI4.selectFrom(s0, s4);
        FloatVector t1 = LO4.selectFrom(s1, s5);
        FloatVector t5 = HI4.selectFrom(s1, s5);
        FloatVector t2 = LO4.selectFrom(s2, s6);
        FloatVector t6 = HI4.selectFrom(s2, s6);
        FloatVector t3 = LO4.selectFrom(s3, s7);
        FloatVector t7 = HI4.selectFrom(s3, s7);
        FloatVector t8 = LO4.selectFrom(s8, s12);
        FloatVector t12 = HI4.selectFrom(s8, s12);
        FloatVector t9 = LO4.selectFrom(s9, s13);
        FloatVector t13 = HI4.selectFrom(s9, s13);
        FloatVector t10 = LO4.selectFrom(s10, s14);
        FloatVector t14 = HI4.selectFrom(s10, s14);
        FloatVector t11 = LO4.selectFrom(s11, s15);
        FloatVector t15 = HI4.selectFrom(s11, s15);
        FloatVector u0 = LO2.selectFrom(t0, t2);
        FloatVector u2 = HI2.selectFrom(t0, t2);
        FloatVector u1 = LO2.selectFrom(t1, t3);
        FloatVector u3 = HI2.selectFrom(t1, t3);
        FloatVector u4 = LO2.selectFrom(t4, t6);
        FloatVector u6 = HI2.selectFrom(t4, t6);
        FloatVector u5 = LO2.selectFrom(t5, t7);
        FloatVector u7 = HI2.selectFrom(t5, t7);
        FloatVector u8 = LO2.selectFrom(t8, t10);
        FloatVector u10 = HI2.selectFrom(t8, t10);
        FloatVector u9 = LO2.selectFrom(t9, t11);
        FloatVector u11 = HI2.selectFrom(t9, t11);
        FloatVector u12 = LO2.selectFrom(t12, t14);
        FloatVector u14 = HI2.selectFrom(t12, t14);
        FloatVector u13 = LO2.selectFrom(t13, t15);
        FloatVector u15 = HI2.selectFrom(t13, t15);
        LO1.selectFrom(u0, u1).intoArray(dst, di);
        HI1.selectFrom(u0, u1).intoArray(dst, di + dstStride);
        LO1.selectFrom(u2, u3).intoArray(dst, di + 2 * dstStride);
        HI1.selectFrom(u2, u3).intoArray(dst, di + 3 * dstStride);
        LO1.selectFrom(u4, u5).intoArray(dst, di + 4 * dstStride);
        HI1.selectFrom(u4, u5).intoArray(dst, di + 5 * dstStride);
        LO1.selectFrom(u6, u7).intoArray(dst, di + 6 * dstStride);
        HI1.selectFrom(u6, u7).intoArray(dst, di + 7 * dstStride);
        LO1.selectFrom(u8, u9).intoArray(dst, di + 8 * dstStride);
        HI1.selectFrom(u8, u9).intoArray(dst, di + 9 * dstStride);
        LO1.selectFrom(u10, u11).intoArray(dst, di + 10 * dstStride);
        HI1.selectFrom(u10, u11).intoArray(dst, di + 11 * dstStride);
        LO1.selectFrom(u12, u13).intoArray(dst, di + 12 * dstStride);
        HI1.selectFrom(u12, u13).intoArray(dst, di + 13 * dstStride);
        LO1.selectFrom(u14, u15).intoArray(dst, di + 14 * dstStride);
        HI1.selectFrom(u14, u15).intoArray(dst, di + 15 * dstStride);
    }
}
