package dev.brisk.backend.jvm;

import java.util.Arrays;

/**
 * The last elements of an optimizer chunk that do not fill a vector: copied into zero-padded arrays one vector long,
 * updated by the optimizer's own whole-vector loop, and the written arrays copied back. Each lane is computed as in
 * the loop, so these elements get the bits of the others; the padding lanes are computed and dropped. Per thread
 * ({@link Scratch}), so the chunks of one parallel call do not share it.
 */
final class OptimizerTail {
    private final OptimizerArgs args = new OptimizerArgs();
    private final float[] p = new float[VectorOptimizers.L];
    private final float[] g = new float[VectorOptimizers.L];
    private final float[] m = new float[VectorOptimizers.L];
    private final float[] v = new float[VectorOptimizers.L];
    private final float[] w = new float[VectorOptimizers.L];

    /** Updates elements {@code [from, to)} of {@code a}'s arrays, fewer than one vector, with {@code a}'s loop. */
    static void run(OptimizerArgs a, int from, int to) {
        Scratch.get().optimizerTail().update(a, from, to);
    }

    private void update(OptimizerArgs a, int from, int to) {
        int n = to - from;
        OptimizerArgs t = args;
        t.copyHyperparameters(a);
        t.p = padded(a.p, a.pOff + from, p, n);
        t.g = padded(a.g, a.gOff + from, g, n);
        t.m = padded(a.m, a.mOff + from, m, n);
        t.v = padded(a.v, a.vOff + from, v, n);
        t.w = padded(a.w, a.wOff + from, w, n);
        try {
            t.vectors.run(t, 0, VectorOptimizers.L);
            // Every array but the gradient is the optimizer's state or its parameters: written.
            copyBack(t.p, a.p, a.pOff + from, n);
            copyBack(t.m, a.m, a.mOff + from, n);
            copyBack(t.v, a.v, a.vOff + from, n);
            copyBack(t.w, a.w, a.wOff + from, n);
        } finally {
            t.clearReferences();
        }
    }

    /** {@code n} elements of {@code src} from {@code off} in {@code lanes}, zeros after; null for an absent array. */
    private static float[] padded(float[] src, int off, float[] lanes, int n) {
        if (src == null) {
            return null;
        }
        System.arraycopy(src, off, lanes, 0, n);
        Arrays.fill(lanes, n, lanes.length, 0f);
        return lanes;
    }

    private static void copyBack(float[] lanes, float[] dst, int off, int n) {
        if (lanes != null) {
            System.arraycopy(lanes, 0, dst, off, n);
        }
    }
}
