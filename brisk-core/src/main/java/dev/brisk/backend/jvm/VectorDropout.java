package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Dropout with {@link DropoutMask}'s SplitMix64 draws hashed in 64-bit lanes, with the bits of
 * {@link ScalarKernels#dropout}: the same counters, the same hash, the same keep test (in integers, see
 * {@link DropoutMask#threshold}) and the same {@code x / keep}. Each element's draw is a pure function of its index,
 * so the call splits over the pool in any chunks with the same result.
 *
 * <p>The float lanes are as many as the long lanes (half the register width), so one hash vector decides one float
 * vector. With AVX-512DQ the 64-bit multiply is one instruction; AVX2 has none, yet there the kernel still took about
 * a sixth of the scalar loop's time (Zen 4 under {@code -XX:UseAVX=2}, same bits). Without 256-bit long vectors
 * (NEON, SSE, AVX1) the scalar loop runs instead.
 */
final class VectorDropout {
    private static final VectorSpecies<Long> LS = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> FS =
            VectorSpecies.of(float.class, VectorShape.forBitSize(Math.max(64, LS.vectorBitSize() / 2)));
    private static final int L = LS.length();
    /** Whether the hash runs in vector lanes on this JVM. */
    static final boolean VECTOR = LS.vectorBitSize() >= 256;
    /** Elements per parallel chunk: a hash per element is cheap in lanes, so chunks as large as elementwise ones. */
    static final int GRAIN = VectorElementwise.GRAIN;
    /** Lane {@code j} holds {@code j * GOLDEN}: the counters' offsets within one vector. */
    private static final LongVector LANE_STEPS = LongVector.zero(LS).addIndex(1).mul(DropoutMask.GOLDEN);

    private VectorDropout() {
    }

    /** The kernel of {@link VectorKernels#dropout}: {@code mask} gets 1 or 0 per element, {@code y = x * mask / keep}. */
    static void dropout(float rate, long seed, float[] x, int xOff, float[] mask, int maskOff, float[] y, int yOff,
                        int n) {
        ScalarKernels.checkDropoutRate(rate);
        long key = DropoutMask.key(seed);
        if (Split.serial(n, GRAIN)) {
            range(rate, key, x, xOff, mask, maskOff, y, yOff, 0, n);
        } else {
            DropoutArgs r = DropoutArgs.get();
            r.rate = rate;
            r.key = key;
            r.x = x;
            r.xOff = xOff;
            r.mask = mask;
            r.maskOff = maskOff;
            r.y = y;
            r.yOff = yOff;
            r.forRange(n, GRAIN, Split.CHUNKS_PER_THREAD, (a, i0, i1) ->
                    range(a.rate, a.key, a.x, a.xOff, a.mask, a.maskOff, a.y, a.yOff, i0, i1));
        }
    }

    /** Elements {@code [i0, i1)}: whole vectors in lanes, the rest (or all, without {@link #VECTOR}) scalar. */
    static void range(float rate, long key, float[] x, int xOff, float[] mask, int maskOff, float[] y, int yOff,
                      int i0, int i1) {
        float keep = 1 - rate;
        int i = i0;
        if (VECTOR) {
            long threshold = DropoutMask.threshold(rate);
            // Element i's counter is key + (i + 1) * GOLDEN, wrapping as the scalar long arithmetic does.
            LongVector counter = LANE_STEPS.add(key + (i0 + 1L) * DropoutMask.GOLDEN);
            long step = L * DropoutMask.GOLDEN;
            FloatVector ones = FloatVector.broadcast(FS, 1f);
            FloatVector zeros = FloatVector.zero(FS);
            for (int end = i0 + Math.max(0, i1 - i0) / L * L; i < end; i += L) {
                VectorMask<Float> kept = mix(counter).lanewise(VectorOperators.LSHR, 40)
                        .compare(VectorOperators.GE, threshold).cast(FS);
                zeros.blend(ones, kept).intoArray(mask, maskOff + i);
                zeros.blend(FloatVector.fromArray(FS, x, xOff + i).div(keep), kept).intoArray(y, yOff + i);
                counter = counter.add(step);
            }
        }
        ScalarKernels.dropoutRange(rate, key, keep, x, xOff, mask, maskOff, y, yOff, i, i1);
    }

    /** {@link DropoutMask}'s SplitMix64 finaliser in every lane. */
    private static LongVector mix(LongVector z) {
        z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 30)).mul(DropoutMask.MIX1);
        z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 27)).mul(DropoutMask.MIX2);
        return z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 31));
    }
}
